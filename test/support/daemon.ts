import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Clock, systemClock } from '../../daemon/clock.ts';
import { type RunningDaemon, runDaemon } from '../../daemon/main.ts';
import { type CkbClient, createClient } from '../../src/client/index.ts';
import { newHome } from './home.ts';

export interface TestDaemon {
  url: string;
  home: string;
  apiKey: string;
  daemon: RunningDaemon;
  /** Calls the API with the admin key (or `key`), returning status and parsed JSON body. */
  call(
    method: string,
    path: string,
    body?: unknown,
    key?: string | null,
  ): Promise<{ status: number; body: any; headers: Headers }>;
  /** The project's own client, with the admin key (or `key`): for the steps a test sets up rather than checks. */
  client(key?: string): CkbClient;
  /** Uploads `content` through a pre-signed address with the client; returns the file's id. */
  upload(name: string, content: string | Uint8Array, key?: string): Promise<string>;
  restart(): Promise<void>;
  close(): Promise<void>;
}

function pick(options: { pingIntervalMs?: number }): { pingIntervalMs?: number } {
  return options.pingIntervalMs ? { pingIntervalMs: options.pingIntervalMs } : {};
}

/** A real daemon on a free port with its own temporary CKB_HOME and no provider (offline defaults). */
export async function startTestDaemon(
  options: {
    home?: string;
    config?: Record<string, unknown>;
    clock?: Clock;
    env?: NodeJS.ProcessEnv;
    pingIntervalMs?: number;
  } = {},
): Promise<TestDaemon> {
  const home = options.home ?? (await newHome(options.config));
  if (options.home && options.config) {
    const existing = JSON.parse(await readFile(join(home, 'config.json'), 'utf8').catch(() => '{}'));
    await writeFile(join(home, 'config.json'), JSON.stringify({ ...existing, ...options.config }));
  }
  const env = { CKB_HOME: home, ...options.env };
  const clock = options.clock ?? systemClock;
  let daemon = await runDaemon({ home, port: 0, env, clock, handleSignals: false, ...pick(options) });
  const config = JSON.parse(await readFile(join(home, 'config.json'), 'utf8')) as { api_key: string };
  const test: TestDaemon = {
    url: daemon.url,
    home,
    apiKey: config.api_key,
    daemon,
    async call(method, path, body, key) {
      const headers: Record<string, string> = {};
      const token = key === undefined ? test.apiKey : key;
      if (token !== null) headers['authorization'] = `Bearer ${token}`;
      if (body !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(`${test.url}${path}`, {
        method,
        headers,
        ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {}
      return { status: response.status, body: parsed, headers: response.headers };
    },
    client(key) {
      return createClient({ url: test.url, apiKey: key ?? test.apiKey });
    },
    async upload(name, content, key) {
      const client = test.client(key);
      const bytes = typeof content === 'string' ? Buffer.from(content) : content;
      const { presigned_url } = await client.files.presign({ name });
      return (await client.files.uploadTo(presigned_url, bytes, bytes.byteLength)).id;
    },
    async restart() {
      const port = Number(new URL(test.url).port);
      await daemon.close();
      daemon = await runDaemon({ home, port, env, clock, handleSignals: false, ...pick(options) });
      test.daemon = daemon;
      test.url = daemon.url;
    },
    async close() {
      await daemon.close();
      if (!options.home) await rm(home, { recursive: true, force: true });
    },
  };
  return test;
}

/** Polls a source until ingestion ends. */
export async function waitForSource(test: TestDaemon, id: string, timeoutMs = 60_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await test.call('GET', `/sources/${id}`);
    if (body.embed_status === 'COMPLETED' || body.embed_status === 'FAILED') return body;
    if (Date.now() > deadline)
      throw new Error(`source ${id} still ${body.embed_status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Adds a text source to an application and waits until its ingestion ends; returns the source as it ended. */
export async function addTextSource(
  test: TestDaemon,
  applicationId: string,
  name: string,
  content: string,
): Promise<any> {
  const { body } = await test.call('POST', '/sources', {
    application_id: applicationId,
    type: 'text',
    name,
    content,
  });
  return waitForSource(test, body.id);
}
