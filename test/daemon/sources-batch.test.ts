import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestDaemon, type TestDaemon, waitForSource } from '../support/daemon.ts';

let daemon: TestDaemon;
let appId: string;

const MISSING_APP = 'app_01ABCDEFGHJKMNPQRSTVWXYZ00';

beforeAll(async () => {
  daemon = await startTestDaemon();
  appId = (await daemon.call('POST', '/applications', { name: 'batch' })).body.id;
});
afterAll(async () => {
  await daemon.close();
});

function text(name: string, content: string, application = appId) {
  return { application_id: application, name, type: 'text', content };
}

async function sourceCount(): Promise<number> {
  return (await daemon.call('GET', '/sources')).body.length;
}

describe('POST /sources/batch', () => {
  test('adds every source in order, PENDING with content null, and each completes on its own', async () => {
    const fileId = await daemon.upload('otters.md', '# Otters\n\nSea otters hold hands while they sleep.');
    const response = await daemon.call('POST', '/sources/batch', {
      sources: [
        text('tides', 'Spring tides follow the new and the full moon.'),
        { application_id: appId, name: 'otters', type: 'file', content: fileId },
        text('dunes', 'Barchan dunes move downwind as sand blows over their crest.'),
      ],
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.map((source: { name: string }) => source.name)).toEqual([
      'tides',
      'otters',
      'dunes',
    ]);
    for (const source of response.body) {
      expect(source).toMatchObject({ application_id: appId, embed_status: 'PENDING', content: null });
    }
    const finished = await Promise.all(
      response.body.map((source: { id: string }) => waitForSource(daemon, source.id)),
    );
    expect(finished.map((source) => source.embed_status)).toEqual(['COMPLETED', 'COMPLETED', 'COMPLETED']);
    expect(finished[0].content).toBe('Spring tides follow the new and the full moon.');
    const hits = (await daemon.call('POST', `/applications/${appId}/search`, { query: 'otters sleep' })).body;
    expect(hits[0]).toMatchObject({ source: 'otters', source_id: response.body[1].id });
  });

  test('a hundred sources at once all complete with exactly their own chunks', async () => {
    const application = (await daemon.call('POST', '/applications', { name: 'many' })).body.id;
    const sources = Array.from({ length: 100 }, (_, index) =>
      text(`note-${index}`, `Note ${index} mentions the codeword zebra${index} once.`, application),
    );
    const response = await daemon.call('POST', '/sources/batch', { sources });
    expect(response.status).toBe(201);
    for (const source of response.body) {
      expect(await waitForSource(daemon, source.id)).toMatchObject({ embed_status: 'COMPLETED', chunks: 1 });
    }
    const hit = (
      await daemon.call('POST', `/applications/${application}/search`, { query: 'zebra57', limit: 1 })
    ).body;
    expect(hit[0]).toMatchObject({ source: 'note-57', text: 'Note 57 mentions the codeword zebra57 once.' });
  });

  test('one invalid source refuses the whole batch, naming its position', async () => {
    const before = await sourceCount();
    const response = await daemon.call('POST', '/sources/batch', {
      sources: [text('fine', 'Fine text.'), text('also fine', 'More text.'), text('empty', '   ')],
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ type: 'invalid_request', param: 'sources.2.content' });
    expect(await sourceCount()).toBe(before);
  });

  test('an unknown application or file refuses the whole batch with a 404 naming its position', async () => {
    const before = await sourceCount();
    const noApp = await daemon.call('POST', '/sources/batch', {
      sources: [text('fine', 'Fine text.'), text('lost', 'Lost text.', MISSING_APP)],
    });
    expect(noApp.status).toBe(404);
    expect(noApp.body.error).toMatchObject({ type: 'not_found', param: 'sources.1.application_id' });
    const noFile = await daemon.call('POST', '/sources/batch', {
      sources: [
        { application_id: appId, name: 'gone', type: 'file', content: 'file_01ABCDEFGHJKMNPQRSTVWXYZ00' },
      ],
    });
    expect(noFile.status).toBe(404);
    expect(noFile.body.error).toMatchObject({ type: 'not_found', param: 'sources.0.content' });
    expect(await sourceCount()).toBe(before);
  });

  test('an empty batch, one over 1,000 sources, or a body that is not a batch is a 400', async () => {
    const empty = await daemon.call('POST', '/sources/batch', { sources: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.error.param).toBe('sources');
    const tooMany = await daemon.call('POST', '/sources/batch', {
      sources: Array.from({ length: 1001 }, (_, index) => text(`n${index}`, 'x')),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.message).toMatch(/at most 1000/);
    const single = await daemon.call('POST', '/sources/batch', text('single', 'Not wrapped in sources.'));
    expect(single.status).toBe(400);
    expect(single.body.error.param).toBe('sources');
  });

  test('other methods on /sources/batch are refused', async () => {
    const response = await daemon.call('PUT', '/sources/batch', { sources: [] });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });
});

describe('the order a batch is prepared in', () => {
  test('the largest source of a batch is prepared first, so a big one does not finish alone at the end', async () => {
    const oneAtATime = await startTestDaemon({ config: { limits: { ingest_concurrency: 1 } } });
    try {
      const application = (await oneAtATime.call('POST', '/applications', { name: 'order' })).body.id;
      const small = (index: number) => text(`small-${index}`, `Note ${index} about tides.`, application);
      const big = text('big', 'The tide turns twice a day. '.repeat(20_000), application);
      const { body } = await oneAtATime.call('POST', '/sources/batch', {
        sources: [small(1), small(2), small(3), big, small(4)],
      });
      const bigId = body[3].id;
      // One source is prepared at a time: once any has left PENDING, the big one must have too.
      for (;;) {
        const sources = (await oneAtATime.call('GET', `/applications/${application}/sources`)).body;
        const started = sources.filter(
          (source: { embed_status: string }) => source.embed_status !== 'PENDING',
        );
        if (started.length === 0) continue;
        expect(started.map((source: { id: string }) => source.id)).toContain(bigId);
        if (started.length === sources.length) break;
      }
    } finally {
      await oneAtATime.close();
    }
  });
});
