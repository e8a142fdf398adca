import { readdir, stat } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runDaemon } from '../../daemon/main.ts';
import { startTestDaemon, type TestDaemon, waitForSource } from '../support/daemon.ts';
import { expectContractError, sleep } from './support.ts';

const offset = { ms: 0 };
const clock = { now: () => new Date(Date.now() + offset.ms) };
let daemon: TestDaemon;

beforeAll(async () => {
  daemon = await startTestDaemon({
    clock,
    config: { limits: { rate_limit_per_minute: 30, body_bytes: 4096, upload_bytes: 2048 } },
  });
});

afterAll(() => daemon.close());

async function newKey(account: string): Promise<string> {
  const response = await daemon.call('POST', '/admin/keys', { account });
  expect(response.status).toBe(201);
  return response.body.key;
}

describe('rate limits', () => {
  test('a key over its rate gets 429 with Retry-After; other keys are unaffected', async () => {
    const busy = await newKey('busy');
    const calm = await newKey('calm');
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<TestDaemon['call']>> | undefined;
    for (let attempt = 0; attempt < 40 && !limited; attempt++) {
      const response = await daemon.call('GET', '/applications', undefined, busy);
      statuses.push(response.status);
      if (response.status === 429) limited = response;
    }
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(29);
    expect(limited).toBeDefined();
    expectContractError(limited!, '429');
    expect(limited!.body.error.type).toBe('rate_limited');
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await daemon.call('GET', '/applications', undefined, calm)).status).toBe(200);
  });
});

describe('size limits', () => {
  test('a body over the limit is a 413 whether declared or streamed, and nothing is created', async () => {
    const before = (await daemon.call('GET', '/applications')).body.length;
    const big = await daemon.call('POST', '/applications', { name: 'big', description: 'x'.repeat(5_000) });
    expect(big.status).toBe(413);
    expectContractError(big, 'declared');
    // Chunked, with no Content-Length: the limit is applied while reading.
    const streamed = await fetch(`${daemon.url}/applications`, {
      method: 'POST',
      headers: { authorization: `Bearer ${daemon.apiKey}`, 'content-type': 'application/json' },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(
            new TextEncoder().encode(`{"name":"streamed","description":"${'y'.repeat(8_000)}"}`),
          );
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect((await daemon.call('GET', '/applications')).body.length).toBe(before);
  });

  test('an upload over the limit is a 413 and leaves no partial file', async () => {
    const { presigned_url } = (await daemon.call('GET', '/files/presigned-url?name=big.txt')).body;
    const response = await fetch(presigned_url, { method: 'PUT', body: 'z'.repeat(3_000) });
    expect(response.status).toBe(413);
    expectContractError({ status: 413, body: await response.json(), headers: response.headers }, 'upload');
    const stored = await readdir(join(daemon.home, 'data', 'files'));
    expect(stored.filter((name) => name.includes(new URL(presigned_url).pathname.split('/').pop()!))).toEqual(
      [],
    );
  });
});

describe('pre-signed URL misuse', () => {
  async function presign(name: string): Promise<URL> {
    return new URL((await daemon.call('GET', `/files/presigned-url?name=${name}`)).body.presigned_url);
  }
  async function put(url: URL | string, body = 'hello', method = 'PUT') {
    const response = await fetch(url, { method, ...(method === 'GET' ? {} : { body }) });
    return { status: response.status, body: (await response.json()) as any, headers: response.headers };
  }

  test('tampered signature, expiry, account, id or name is 403', async () => {
    const other = (await daemon.call('POST', '/admin/keys', { account: 'other' })).body;
    const otherAccount = (await daemon.call('GET', '/admin/keys')).body.find(
      (key: any) => key.id === other.id,
    );
    expect(otherAccount).toBeDefined();
    const tamperings: ((url: URL) => void)[] = [
      (url) => {
        // Change the last hex digit (to another one: "0" would be no change one time in sixteen).
        const signature = url.searchParams.get('signature')!;
        url.searchParams.set('signature', `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`);
      },
      (url) => url.searchParams.set('signature', ''),
      (url) => url.searchParams.set('signature', 'zz'.repeat(32)),
      (url) => url.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3_600)),
      (url) => url.searchParams.set('account', 'acct_01JD000000000000000000000Z'),
      (url) => url.searchParams.set('name', 'renamed.txt'),
      (url) => {
        url.pathname = '/files/upload/file_01JD00000000000000000000ZZ';
      },
    ];
    for (const tamper of tamperings) {
      const url = await presign('tampered.txt');
      tamper(url);
      const response = await put(url);
      expect(response.status, url.search).toBe(403);
      expectContractError(response, url.href);
    }
    const missing = await presign('missing.txt');
    missing.searchParams.delete('signature');
    const response = await put(missing);
    expect(response.status).toBe(400);
    expectContractError(response, 'missing signature');
  });

  test('an expired URL is 403 and a spent URL is 403 on reuse', async () => {
    const late = await presign('late.txt');
    offset.ms = 16 * 60 * 1000;
    try {
      const response = await put(late);
      expect(response.status).toBe(403);
      expect(response.body.error.message).toMatch(/expired/);
    } finally {
      offset.ms = 0;
    }
    const once = await presign('once.txt');
    expect((await put(once)).status).toBe(200);
    const again = await put(once, 'overwrite');
    expect(again.status).toBe(403);
    expect(again.body.error.message).toMatch(/already used/);
  });

  test('the wrong method on an upload URL is 405 with Allow, and uploads nothing', async () => {
    const url = await presign('method.txt');
    for (const method of ['GET', 'POST', 'DELETE', 'PATCH']) {
      const response = await put(url, 'body', method);
      expect(response.status, method).toBe(405);
      expectContractError(response, method);
      expect(response.headers.get('allow')).toBe('PUT');
    }
    expect((await put(url)).status).toBe(200);
  });
});

describe('shutdown, locking and permissions', () => {
  test('graceful shutdown finishes an in-flight upload, and queued ingestion resumes after restart', async () => {
    const test = await startTestDaemon();
    try {
      const application = (await test.call('POST', '/applications', { name: 'shutdown' })).body.id;
      const { file_id, presigned_url } = (await test.call('GET', '/files/presigned-url?name=slow.txt')).body;
      const url = new URL(presigned_url);
      // A slow upload in flight when the daemon is asked to stop: its first half now, the rest after close().
      const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = httpRequest(
          { host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method: 'PUT' },
          (response) => {
            let body = '';
            response.on('data', (chunk) => {
              body += chunk;
            });
            response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
          },
        );
        request.on('error', reject);
        request.write('The first half of the tide table, ');
        setTimeout(() => request.end('and the second half.'), 400);
      });
      const sources = [];
      for (let index = 0; index < 6; index++) {
        const created = await test.call('POST', '/sources', {
          application_id: application,
          type: 'text',
          name: `queued-${index}`,
          content: `Queued document ${index}. `.repeat(3_000),
        });
        sources.push(created.body.id);
      }
      await sleep(100);
      const closing = test.daemon.close();
      const uploaded = await answer;
      await closing;
      expect(uploaded.status).toBe(200);
      expect(JSON.parse(uploaded.body).id).toBe(file_id);
      await test.restart();
      expect((await test.call('GET', '/files')).body.map((file: { id: string }) => file.id)).toContain(
        file_id,
      );
      for (const id of sources) expect((await waitForSource(test, id)).embed_status).toBe('COMPLETED');
    } finally {
      await test.close();
    }
  });

  test('a second daemon on the same data directory is refused', async () => {
    await expect(runDaemon({ home: daemon.home, port: 0, handleSignals: false })).rejects.toThrow(
      /another ckb daemon .* is already using/,
    );
    expect((await daemon.call('GET', '/health')).status).toBe(200);
  });

  test('config.json, the data directory and everything written in it are owner-only', async () => {
    const mode = async (path: string) => (await stat(path)).mode & 0o777;
    expect(await mode(daemon.home)).toBe(0o700);
    expect(await mode(join(daemon.home, 'config.json'))).toBe(0o600);
    const dataDir = join(daemon.home, 'data');
    expect(await mode(dataDir)).toBe(0o700);
    const { presigned_url } = (await daemon.call('GET', '/files/presigned-url?name=mode.txt')).body;
    expect((await fetch(presigned_url, { method: 'PUT', body: 'private' })).status).toBe(200);
    const loose: string[] = [];
    for (const root of [dataDir, join(daemon.home, 'logs')]) {
      for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
        const path = join(entry.parentPath, entry.name);
        const bits = await mode(path);
        if (bits & 0o077) loose.push(`${path.slice(daemon.home.length)} ${bits.toString(8)}`);
      }
    }
    expect(loose).toEqual([]);
  });
});
