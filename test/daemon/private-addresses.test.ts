import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon, type TestDaemon, waitForSource } from '../support/daemon.ts';
import { serve } from '../support/http-server.ts';

// A service on this machine that only its owner should index: its pages must not become another account's chunks.
let local: { origin: string; close(): Promise<void> };

beforeAll(async () => {
  local = await serve((request, response) => {
    if (request.url === '/slow') {
      setTimeout(() => {
        response.setHeader('content-type', 'text/html');
        response.end('<html><body><p>The slow intranet page.</p></body></html>');
      }, 1_000);
      return;
    }
    if (request.url?.endsWith('.txt')) {
      response.setHeader('content-type', 'text/plain');
      response.end('The intranet password policy is secret.');
      return;
    }
    response.setHeader('content-type', 'text/html');
    response.end(
      '<html><head><title>Intranet</title></head><body><p>The intranet wiki is private.</p></body></html>',
    );
  });
});

afterAll(() => local?.close());

/** Polls a source with its own account's key until ingestion ends. */
async function settled(daemon: TestDaemon, id: string, key: string): Promise<any> {
  for (;;) {
    const { body } = await daemon.call('GET', `/sources/${id}`, undefined, key);
    if (body.embed_status === 'COMPLETED' || body.embed_status === 'FAILED') return body;
    expect(body.embed_status).toMatch(/PENDING|PROCESSING/);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function keyFor(daemon: TestDaemon, account: string): Promise<string> {
  return (await daemon.call('POST', '/admin/keys', { account })).body.key;
}

/** Adds each kind of web source with `key` and returns their final states. */
async function webSources(daemon: TestDaemon, key: string): Promise<any[]> {
  const app = (await daemon.call('POST', '/applications', { name: 'Web' }, key)).body.id;
  const bodies = [
    { type: 'url', content: `${local.origin}/wiki` },
    { type: 'urls', content: [`${local.origin}/wiki`, `${local.origin}/more`] },
    { type: 'website', content: `${local.origin}/` },
    { type: 'file', content: `${local.origin}/policy.txt` },
  ];
  const one = await daemon.call('POST', '/sources', { application_id: app, name: 'one', ...bodies[0] }, key);
  const batch = await daemon.call(
    'POST',
    '/sources/batch',
    { sources: bodies.slice(1).map((body, index) => ({ application_id: app, name: `b${index}`, ...body })) },
    key,
  );
  expect(one.status).toBe(201);
  expect(batch.status).toBe(201);
  const ids = [one.body.id, ...batch.body.map((source: { id: string }) => source.id)];
  return Promise.all(ids.map((id) => settled(daemon, id, key)));
}

describe('a loopback daemon with the default settings', () => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startTestDaemon();
  });
  afterAll(() => daemon?.close());

  it('lets an admin key index private addresses', async () => {
    for (const source of await webSources(daemon, daemon.apiKey)) {
      expect(source.embed_status, source.embed_status_message).toBe('COMPLETED');
    }
  });

  it("refuses them to any other account's key, for every kind of web source", async () => {
    const key = await keyFor(daemon, 'guest');
    for (const source of await webSources(daemon, key)) {
      expect(source.embed_status).toBe('FAILED');
      expect(source.embed_status_message).toMatch(/not a public internet address/);
    }
  });

  it('keeps the decision made when the source was added: a source resumed after a restart still has it', async () => {
    const app = (await daemon.call('POST', '/applications', { name: 'Restart' })).body.id;
    const added = await daemon.call('POST', '/sources', {
      application_id: app,
      name: 'slow wiki',
      type: 'url',
      content: `${local.origin}/slow`,
    });
    // The page answers after a second, so the source is still being fetched when the daemon stops; it resumes at
    // the next start, when no key is at hand, and must still be allowed.
    await daemon.restart();
    const source = await waitForSource(daemon, added.body.id);
    expect(source.embed_status, source.embed_status_message).toBe('COMPLETED');
  });
});

describe('block_private_addresses', () => {
  it('true refuses private addresses to admin keys too', async () => {
    const daemon = await startTestDaemon({ config: { block_private_addresses: true } });
    try {
      for (const source of await webSources(daemon, daemon.apiKey))
        expect(source.embed_status).toBe('FAILED');
    } finally {
      await daemon.close();
    }
  });

  it('false lets every key fetch them', async () => {
    const daemon = await startTestDaemon({ config: { block_private_addresses: false } });
    try {
      const key = await keyFor(daemon, 'guest');
      for (const source of await webSources(daemon, key)) {
        expect(source.embed_status, source.embed_status_message).toBe('COMPLETED');
      }
    } finally {
      await daemon.close();
    }
  });
});
