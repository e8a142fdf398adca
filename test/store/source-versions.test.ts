import { createHash } from 'node:crypto';
import { Migrator } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../daemon/store/database.ts';
import { createJobStore } from '../../daemon/store/jobs.ts';
import { migrate, migrations } from '../../daemon/store/migrations.ts';
import { liveVersion } from '../../daemon/store/source-versions.ts';
import { createSourceStore } from '../../daemon/store/sources.ts';
import { newDatabaseLocation } from '../support/home.ts';
import { addAccountAndApplication } from '../support/store-rows.ts';

const AT = '2026-11-24T00:00:00.000Z';
const NOW = Date.parse(AT);
const LEASE_MS = 30_000;
const HOUR = 3_600;

let database: Database;

async function addWebSource(id: string, syncInterval: number | null): Promise<void> {
  await createSourceStore(database).insert(
    'acct_1',
    [
      {
        record: {
          id,
          account_id: 'acct_1',
          application_id: 'app_1',
          name: id,
          type: 'url',
          content: 'https://example.com/',
          embed_status: 'PENDING',
          embed_status_message: '',
          chunks: 0,
          pages: 0,
          characters: 0,
          embedder: null,
          allow_private_addresses: false,
          attempts: 0,
          last_error: '',
          content_hash: null,
          sync_interval: syncInterval,
          created_at: AT,
          updated_at: AT,
        },
        lane: 'web',
        size: 0,
      },
    ],
    () => 'application_id',
  );
}

const page = {
  position: 1,
  address: 'https://example.com/',
  url: 'https://example.com/',
  title: 'Example',
  text: 'Example text.',
  links: ['https://example.com/a'],
  etag: '"v1"',
};

function completion(sourceId: string, generation: number, extra = {}) {
  return {
    sourceId,
    generation,
    replaces: generation > 1,
    chunks: 2,
    pages: 1,
    characters: 13,
    embedder: 'test',
    message: '',
    version: { contentHash: 'hash-1', pages: [page] },
    ...extra,
  };
}

describe('source versions in the store', () => {
  beforeEach(async () => {
    database = await openDatabase(await newDatabaseLocation());
  });
  afterEach(async () => {
    await database.close();
  });

  it('a completed attempt keeps its pages and hash, and queues the next periodic sync, not counted as waiting', async () => {
    await migrate(database.db, database.kind, database.description);
    await addAccountAndApplication(database, AT);
    await addWebSource('src_periodic', HOUR);
    const jobs = createJobStore(database, 'worker-a');
    const [claimed] = await jobs.claim('web', 1, NOW, LEASE_MS, AT);
    expect(await jobs.complete([completion('src_periodic', claimed!.generation)], AT)).toEqual(
      new Set(['src_periodic']),
    );
    expect(await liveVersion(database, 'src_periodic')).toEqual({
      generation: 1,
      embedder: 'test',
      contentHash: 'hash-1',
      pages: [page],
    });
    const [next] = await database.db.selectFrom('jobs').selectAll().execute();
    expect(next).toMatchObject({ source_id: 'src_periodic', attempts: 0, run_after: NOW + HOUR * 1000 });
    expect(await jobs.counts(NOW)).toEqual({ waiting: 0, leased: 0 });
    expect(await jobs.counts()).toEqual({ waiting: 1, leased: 0 });
    expect(await jobs.claim('web', 1, NOW + HOUR * 1000 - 1, LEASE_MS, AT)).toEqual([]);

    // Due: claimed like any job; the content found unchanged keeps generation 1, and the next sync is queued.
    const [sync] = await jobs.claim('web', 1, NOW + HOUR * 1000, LEASE_MS, AT);
    expect(sync!.generation).toBe(2);
    await jobs.complete([completion('src_periodic', 2, { keeps: 1 })], AT);
    expect((await liveVersion(database, 'src_periodic'))?.generation).toBe(1);
    expect(await jobs.counts(NOW)).toEqual({ waiting: 0, leased: 0 });

    // A failed sync is followed by the next one too.
    await database.db.updateTable('jobs').set({ run_after: 0 }).execute();
    const [failing] = await jobs.claim('web', 1, NOW, LEASE_MS, AT);
    expect(await jobs.fail({ sourceId: 'src_periodic', generation: failing!.generation }, 'down', AT)).toBe(
      true,
    );
    expect(await database.db.selectFrom('jobs').select('run_after').execute()).toEqual([
      { run_after: NOW + HOUR * 1000 },
    ]);
  });

  it('an update replaces the job of a running attempt, which can then complete nothing', async () => {
    await migrate(database.db, database.kind, database.description);
    await addAccountAndApplication(database, AT);
    await addWebSource('src_moving', null);
    const sources = createSourceStore(database);
    const jobs = createJobStore(database, 'worker-a');
    const [running] = await jobs.claim('web', 1, NOW, LEASE_MS, AT);
    const updated = await sources.update(
      'acct_1',
      'src_moving',
      {
        content: {
          value: { type: 'url', content: 'https://example.com/new' },
          hash: null,
          lane: 'web',
          size: 0,
        },
      },
      NOW,
      AT,
    );
    expect(updated).toMatchObject({ queued: true, supersededUpTo: running!.generation });
    expect(updated!.record).toMatchObject({ embed_status: 'PENDING', content: 'https://example.com/new' });
    expect(await jobs.complete([completion('src_moving', running!.generation)], AT)).toEqual(new Set());
    const [again] = await jobs.claim('web', 1, NOW, LEASE_MS, AT);
    expect(again!.source.content).toBe('https://example.com/new');
    expect(again!.generation).toBe(running!.generation + 1);
    // The same content again queues nothing more, and a sync of a queued source adds no job.
    expect(
      (await sources.update(
        'acct_1',
        'src_moving',
        {
          content: {
            value: { type: 'url', content: 'https://example.com/new' },
            hash: null,
            lane: 'web',
            size: 0,
          },
        },
        NOW,
        AT,
      ))!.queued,
    ).toBe(false);
    expect((await sources.requestSync('acct_1', 'src_moving', NOW, AT))!.queued).toBe(false);
    expect(await database.db.selectFrom('jobs').select('source_id').execute()).toHaveLength(1);
    expect(await sources.update('acct_2', 'src_moving', { name: 'x' }, NOW, AT)).toBeUndefined();
  });

  it('migration 0002 gives sources of the earlier schema the hash of their text or file', async () => {
    const migrator = new Migrator({
      db: database.db,
      provider: { getMigrations: async () => migrations(database.kind) },
    });
    expect((await migrator.migrateTo('0001_initial')).error).toBeUndefined();
    await addAccountAndApplication(database, AT);
    await database.db
      .insertInto('files')
      .values({
        id: 'file_1',
        account_id: 'acct_1',
        name: 'a.md',
        bytes: 1,
        sha256: 'f'.repeat(64),
        uploaded_at: AT,
      })
      .execute();
    const row = (id: string, type: 'text' | 'file' | 'url', content: string) => ({
      id,
      account_id: 'acct_1',
      application_id: 'app_1',
      name: id,
      type,
      content,
      content_bytes: content.length,
      embed_status: 'COMPLETED' as const,
      embed_status_message: '',
      chunks: 1,
      pages: 1,
      characters: 1,
      embedder: 'test',
      allow_private_addresses: 0,
      generation: 1,
      last_generation: 1,
      created_at: AT,
      updated_at: AT,
    });
    await (database.db as any)
      .insertInto('sources')
      .values([
        row('src_text', 'text', 'Tides turn twice a day.'),
        row('src_file', 'file', 'file_1'),
        row('src_url', 'url', 'https://example.com/'),
      ])
      .execute();
    const applied = await migrate(database.db, database.kind, database.description);
    expect(applied[0]).toBe('0002_source_versions');
    const hashes = await database.db
      .selectFrom('sources')
      .select(['id', 'content_hash'])
      .orderBy('id')
      .execute();
    expect(hashes).toEqual([
      { id: 'src_file', content_hash: 'f'.repeat(64) },
      { id: 'src_text', content_hash: createHash('sha256').update('Tides turn twice a day.').digest('hex') },
      { id: 'src_url', content_hash: null },
    ]);
  });
});
