import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPostgresCoordination } from '../../daemon/store/coordination.ts';
import { openDatabase } from '../../daemon/store/database.ts';
import { EmbedderMismatchError, openStore } from '../../daemon/store/index.ts';
import { createKeyStore } from '../../daemon/store/keys.ts';
import { migrate } from '../../daemon/store/migrations.ts';
import { newDatabaseLocation, testDatabaseKind } from '../support/home.ts';

const AT = '2026-11-24T00:00:00.000Z';

async function until(what: string, probe: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

// Only PostgreSQL is shared by several processes: the embedded SQLite belongs to the one process of its home.
describe.runIf(testDatabaseKind() === 'postgres')('processes sharing one database', () => {
  it('of several processes creating the first admin key at once, exactly one does', async () => {
    const location = await newDatabaseLocation();
    const databases = await Promise.all(Array.from({ length: 6 }, () => openDatabase(location)));
    try {
      await migrate(databases[0]!.db, databases[0]!.kind, databases[0]!.description);
      const created = await Promise.all(
        databases.map((database, position) =>
          createKeyStore(database).create(
            'default',
            {
              id: `key_${position}`,
              hash: `hash-${position}`,
              prefix: 'ckb_',
              admin: true,
              created_at: AT,
              revoked_at: null,
            },
            { onlyIfNone: true },
          ),
        ),
      );
      expect(created.filter((key) => key !== undefined)).toHaveLength(1);
      expect(await databases[0]!.db.selectFrom('keys').select('id').execute()).toHaveLength(1);
      expect(await databases[0]!.db.selectFrom('accounts').select('name').execute()).toEqual([
        { name: 'default' },
      ]);
    } finally {
      await Promise.all(databases.map((database) => database.close()));
    }
  });

  it('start-up knows whether it is alone, one process leads at a time, and queued jobs are announced', async () => {
    const location = await newDatabaseLocation();
    if (location.kind !== 'postgres') throw new Error('expected PostgreSQL');
    const errors: string[] = [];
    const open = () => openPostgresCoordination(location.url, (what) => errors.push(what));
    const first = await open();
    const second = await open();
    try {
      expect(await first.startUp(async (alone) => alone)).toBe(true);
      // The first now runs: the second is not alone.
      expect(await second.startUp(async (alone) => alone)).toBe(false);
      expect(await first.leads()).toBe(true);
      expect(await second.leads()).toBe(false);
      expect(await first.leads()).toBe(true);

      let announced = 0;
      second.onJobs(() => {
        announced += 1;
      });
      // A burst of announcements, beside a lock query on the same connection, is told once, one query at a time
      // (pg warns of a query sent while another runs); one made after it is told again.
      const warnings: string[] = [];
      const onWarning = (warning: Error) => warnings.push(warning.message);
      process.on('warning', onWarning);
      for (let burst = 0; burst < 100; burst++) first.announceJobs();
      const leadsMeanwhile = first.leads();
      await until('the announcement', () => announced === 1);
      expect(await leadsMeanwhile).toBe(true);
      first.announceJobs();
      await until('the second announcement', () => announced === 2);
      await new Promise((resolve) => setTimeout(resolve, 200));
      process.off('warning', onWarning);
      expect(announced).toBe(2);
      expect(warnings).toEqual([]);

      // The leader stops (or dies: its connection closes all the same); the other takes the lead.
      await first.close();
      expect(await second.leads()).toBe(true);
      const third = await open();
      expect(await third.startUp(async (alone) => alone)).toBe(false);
      expect(await third.leads()).toBe(false);
      await second.close();
      await until('the lead to be free', () => third.leads());
      await third.close();
      expect(errors).toEqual([]);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('a process configured for another embedder than the running ones refuses to start; alone, it switches', async () => {
    const location = await newDatabaseLocation();
    const directory = await mkdtemp(join(tmpdir(), 'ckb-embedders-'));
    const open = (embedder: { id: string; dimensions: number }) =>
      openStore({
        database: location,
        lancedb: { uri: join(directory, 'db'), storageOptions: {} },
        dataDir: directory,
        embedder,
        owner: `test:${embedder.id}:${Math.random()}`,
        ingesting: () => false,
        onBackgroundError: () => {},
        now: () => AT,
      });
    const offline = { id: 'offline-hash-1024-v1', dimensions: 1024 };
    const other = { id: 'provider-small', dimensions: 8 };
    try {
      const running = await open(offline);
      const refused = await open(other).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(EmbedderMismatchError);
      expect((refused as Error).message).toMatch(
        /embedded by offline-hash-1024-v1.*configured for provider-small/,
      );
      // Another process with the same embedder starts beside it, and leaves the tables alone.
      const beside = await open(offline);
      expect(beside.opened.droppedTables).toEqual([]);
      await beside.close();
      await running.close();
      // Alone, a process may switch: the other embedder's chunks are dropped, to be embedded again.
      const switched = await open(other);
      expect(switched.opened.droppedTables).toEqual(['chunks_offline_hash_1024_v1']);
      await switched.close();
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
