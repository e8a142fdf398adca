import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { expect } from 'vitest';
import { ENDPOINTS, type Endpoint } from '../../src/api/endpoints.ts';
import { ErrorBody } from '../../src/api/errors.ts';
import { JsonRpcErrorBody } from '../../src/api/mcp.ts';
import { OpenAiErrorBody } from '../../src/api/openai.ts';
import type { TestDaemon } from '../support/daemon.ts';
import { testDatabaseKind } from '../support/home.ts';

export type Response = { status: number; body: any; headers: Headers };

/** Endpoints a key (or an admin key) guards: everything but health, the OpenAPI document and the signed upload. */
export const GUARDED = ENDPOINTS.filter((endpoint) => endpoint.auth === 'key' || endpoint.auth === 'admin');

/** Fills `{id}` with `id`, URL-encoded so hostile ids reach the route as given. */
export function concretePath(endpoint: Endpoint, id: string): string {
  return endpoint.path.replace(/\{\w+\}/g, encodeURIComponent(id));
}

/**
 * Whether a body is an error in the shape the endpoint promises: the contract's; OpenAI's under /v1; for MCP,
 * the contract's or the protocol's JSON-RPC error.
 */
export function isPromisedError(endpoint: Endpoint | undefined, body: unknown): boolean {
  if (endpoint?.errorShape === 'openai') return OpenAiErrorBody.safeParse(body).success;
  if (endpoint?.errorShape === 'json-rpc' && JsonRpcErrorBody.safeParse(body).success) return true;
  return ErrorBody.safeParse(body).success;
}

/** The contract's type of an error, or under /v1 the code OpenAI's shape carries in its place. */
export function errorCode(endpoint: Endpoint, body: any): string {
  return endpoint.errorShape === 'openai' ? body.error.code : body.error.type;
}

/** The error body the endpoint promises (the contract's unless it says otherwise), with a 4xx status. */
export function expectContractError(response: Response, context: string, endpoint?: Endpoint): void {
  expect(
    isPromisedError(endpoint, response.body),
    `${context}: ${response.status} ${JSON.stringify(response.body)?.slice(0, 300)}`,
  ).toBe(true);
  expect(response.status, context).toBeGreaterThanOrEqual(400);
  expect(response.status, context).toBeLessThan(500);
  if (response.status === 429) expect(response.headers.get('retry-after'), context).toMatch(/^\d+$/);
}

/**
 * Everything an account can read, ids sorted, including each conversation's messages and each source's
 * chunks: two equal snapshots mean no request changed anything visible.
 */
export async function snapshot(test: TestDaemon, key?: string): Promise<unknown> {
  const get = async (path: string) => {
    const response = await test.call('GET', path, undefined, key);
    expect(response.status, path).toBe(200);
    return response.body;
  };
  const byId = (items: { id: string }[]) => [...items].sort((a, b) => a.id.localeCompare(b.id));
  const conversations = await Promise.all(
    byId(await get('/conversations')).map((conversation) => get(`/conversations/${conversation.id}`)),
  );
  const sources = await Promise.all(
    byId(await get('/sources')).map(async (source) => ({
      source: await get(`/sources/${source.id}`),
      chunks: await get(`/sources/${source.id}/chunks`),
    })),
  );
  return {
    applications: byId(await get('/applications')),
    sources,
    conversations,
    files: byId(await get('/files')),
    keys: key === undefined ? byId(await get('/admin/keys')) : [],
  };
}

const RESULTS = resolve(import.meta.dirname, '../../bench/results/reliability.json');

/** Merges one part's figures into bench/results/reliability.json, so each long test records its own section. */
export async function recordFigures(section: string, figures: Record<string, unknown>): Promise<void> {
  let current: Record<string, unknown> = {};
  try {
    current = JSON.parse(await readFile(RESULTS, 'utf8')) as Record<string, unknown>;
  } catch {}
  // Each database's run keeps its own figures: the same suite runs on SQLite and on PostgreSQL.
  const database = testDatabaseKind();
  current[database === 'sqlite' ? section : `${section}_${database}`] = {
    ...figures,
    database,
    measured_at: new Date().toISOString(),
  };
  current['machine'] = {
    node: process.version,
    platform: process.platform,
    cpus: (await import('node:os')).cpus().length,
  };
  await writeFile(RESULTS, `${JSON.stringify(current, null, 2)}\n`);
}

/** Nearest-rank percentile of `values` (milliseconds). */
export function percentile(values: number[], fraction: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? 0;
}

export const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
