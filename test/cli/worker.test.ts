import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run.ts';

let home: string;

function ckb(...args: string[]) {
  const { CKB_DATABASE_URL: _url, CKB_LANCEDB_URI: _lancedb, CKB_FILES_URI: _files, ...env } = process.env;
  return runCli(['--home', home, ...args], { env: { ...env, CKB_HOME: home, NO_COLOR: '1' } });
}

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'ckb-worker-'));
});

afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('processes that share their work through PostgreSQL', () => {
  it('a worker or an API-only process on the embedded SQLite is refused, naming the setting', async () => {
    for (const args of [['worker'], ['serve', '--no-ingest', '--port', '0']]) {
      const result = await ckb(...args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(
        /^ckb: .*embedded SQLite.*--database-url, CKB_DATABASE_URL or database_url/,
      );
    }
  });

  it('a worker’s concurrency is a whole number from 1 to 64', async () => {
    for (const value of ['0', '65', '2.5', 'many']) {
      const result = await ckb('worker', '--concurrency', value);
      expect(result.code, value).toBe(2);
      expect(result.stderr).toContain(`invalid concurrency: ${value}`);
    }
  });

  it('a LanceDB location that is not an absolute directory or an object store is refused', async () => {
    const result = await ckb('serve', '--port', '0', '--lancedb-uri', 'relative/db');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--lancedb-uri, CKB_LANCEDB_URI or lancedb_uri.*absolute/);
  });
});
