import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { DatabaseLocation } from '../../daemon/store/database.ts';
import { createDatabase } from './postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set by test/support/postgres-setup.ts in the `postgres` project: the throwaway cluster's admin URL. */
    postgresAdminUrl: string;
  }
}

/** The database the daemons of this test run use: the `postgres` project runs the same tests on PostgreSQL. */
export function testDatabaseKind(): 'sqlite' | 'postgres' {
  return process.env['CKB_TEST_DATABASE'] === 'postgres' ? 'postgres' : 'sqlite';
}

/**
 * A new, empty CKB_HOME. On PostgreSQL its config.json names a new database of the test cluster, so every daemon
 * started on this home (in this process, a child process or through the CLI) uses that database, and a restart
 * finds its data there.
 */
export async function newHome(config: Record<string, unknown> = {}): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), 'ckb-test-'));
  const database =
    testDatabaseKind() === 'postgres' && config['database_url'] === undefined
      ? { database_url: await createDatabase(inject('postgresAdminUrl')) }
      : {};
  const written = { ...database, ...config };
  if (Object.keys(written).length > 0)
    await writeFile(join(home, 'config.json'), JSON.stringify(written), { mode: 0o600 });
  return home;
}

/** A new, empty metadata database of the kind this test run uses, for tests of the store below the daemon. */
export async function newDatabaseLocation(): Promise<DatabaseLocation> {
  if (testDatabaseKind() === 'postgres')
    return { kind: 'postgres', url: await createDatabase(inject('postgresAdminUrl')) };
  return { kind: 'sqlite', path: join(await mkdtemp(join(tmpdir(), 'ckb-db-')), 'ckb.sqlite') };
}
