import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileLogger } from '../../daemon/logger.ts';
import { startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../support/fake-openai.ts';

interface LogLine {
  level: string;
  message: string;
  request_id?: string;
}

async function logLines(home: string): Promise<LogLine[]> {
  const text = await readFile(join(home, 'logs', 'daemon.log'), 'utf8');
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as LogLine);
}

describe('the daemon log', () => {
  let scratch: string;
  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'ckb-log-'));
  });
  afterAll(() => rm(scratch, { recursive: true, force: true }));

  it('rotates by size, keeping a few files, never splitting a line', async () => {
    const path = join(scratch, 'daemon.log');
    const logger = createFileLogger(path, { maxBytes: 2_000, keep: 2 });
    for (let index = 0; index < 100; index += 1) {
      logger.log(index % 10 === 0 ? 'error' : 'info', 'event', { index, padding: 'x'.repeat(40) });
      if (index % 25 === 0) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await logger.close();
    expect((await readdir(scratch)).sort()).toEqual(['daemon.log', 'daemon.log.1', 'daemon.log.2']);
    const indexes: number[] = [];
    for (const name of ['daemon.log.2', 'daemon.log.1', 'daemon.log']) {
      const text = await readFile(join(scratch, name), 'utf8');
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(2_000);
      for (const line of text.trim().split('\n')) indexes.push((JSON.parse(line) as { index: number }).index);
    }
    // The newest lines are kept, in order; the oldest went with the file that was dropped.
    expect(indexes.at(-1)).toBe(99);
    expect(indexes).toEqual(indexes.toSorted((left, right) => left - right));
  });

  it('parts lines gathered past a file’s size between files, each whole and within it', async () => {
    const path = join(scratch, 'busy.log');
    const logger = createFileLogger(path, { maxBytes: 2_000, keep: 5 });
    // Logged in one turn of the event loop, as while the process is busy: one flush writes them all.
    for (let index = 0; index < 60; index += 1)
      logger.log('info', 'event', { index, padding: 'x'.repeat(40) });
    await logger.close();
    const indexes: number[] = [];
    for (const name of ['busy.log.3', 'busy.log.2', 'busy.log.1', 'busy.log']) {
      const text = await readFile(join(scratch, name), 'utf8');
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(2_000);
      for (const line of text.trim().split('\n')) indexes.push((JSON.parse(line) as { index: number }).index);
    }
    expect(indexes).toEqual(Array.from({ length: 60 }, (_, index) => index));
  });
});

describe('a client that disconnects', () => {
  let vendor: FakeOpenAI;
  let daemon: TestDaemon;
  let app: string;

  beforeAll(async () => {
    vendor = await startFakeOpenAI();
    daemon = await startTestDaemon({
      config: { models: { 'lm-4': { base_url: vendor.baseUrl, model: 'fake', api_key_env: 'FAKE_KEY' } } },
      env: { FAKE_KEY: 'sk-test' },
    });
    app = (await daemon.call('POST', '/applications', { name: 'Slow', model: 'lm-4' })).body.id;
  });
  afterAll(async () => {
    await daemon?.close();
    await vendor?.close();
  });

  it('is logged at info with the request id, not as an error', async () => {
    vendor.enqueue({ type: 'slow', chunkDelayMs: 300 }, { type: 'slow', chunkDelayMs: 300 });
    const ids: string[] = [];
    for (const stream of [true, false]) {
      const controller = new AbortController();
      const response = await fetch(`${daemon.url}/conversations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${daemon.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ application_id: app, message: 'Tell me a long story', stream }),
        signal: controller.signal,
      }).catch(() => undefined);
      if (response) ids.push(response.headers.get('x-request-id') ?? '');
      if (stream) await response?.body?.getReader().read();
      setTimeout(() => controller.abort(), 200);
      await response?.text().catch(() => undefined);
    }

    // An upload cut off half-way.
    const { presigned_url } = (await daemon.call('GET', '/files/presigned-url?name=big.txt')).body;
    await new Promise<void>((resolve) => {
      const upload = httpRequest(presigned_url, { method: 'PUT', headers: { 'content-length': '100000' } });
      upload.on('error', () => resolve());
      upload.write('x'.repeat(1000));
      setTimeout(() => {
        upload.destroy();
        resolve();
      }, 200);
    });

    await new Promise((resolve) => setTimeout(resolve, 500));
    await daemon.restart();
    const lines = await logLines(daemon.home);
    expect(lines.filter((line) => line.level === 'error')).toEqual([]);
    const disconnects = lines.filter((line) => /client disconnected/.test(line.message));
    expect(disconnects.length).toBeGreaterThanOrEqual(2);
    for (const line of disconnects) {
      expect(line.level).toBe('info');
      expect(line.request_id).toMatch(/^[0-9a-f]{12}$/);
    }
    expect(disconnects.map((line) => line.request_id)).toContain(ids[0]);
  });
});
