import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../daemon/store/database.ts';
import { createJobStore, LAPSED_LEASE } from '../../daemon/store/jobs.ts';
import { migrate } from '../../daemon/store/migrations.ts';
import { createSourceStore } from '../../daemon/store/sources.ts';
import { newDatabaseLocation } from '../support/home.ts';
import { addAccountAndApplication } from '../support/store-rows.ts';

const AT = '2026-11-24T00:00:00.000Z';
const LEASE_MS = 30_000;

describe('the ingestion queue', () => {
  let database: Database;

  beforeEach(async () => {
    database = await openDatabase(await newDatabaseLocation());
    await migrate(database.db, database.kind, database.description);
    await addAccountAndApplication(database, AT);
  });

  afterEach(async () => {
    await database.close();
  });

  async function addSources(names: { name: string; size: number }[], createdAt = AT): Promise<string[]> {
    const sources = names.map(({ name, size }, position) => ({
      record: {
        id: `src_${createdAt.slice(17, 19)}${position}${name}`,
        account_id: 'acct_1',
        application_id: 'app_1',
        name,
        type: 'text' as const,
        content: name,
        embed_status: 'PENDING' as const,
        embed_status_message: '',
        chunks: 0,
        pages: 0,
        characters: 0,
        embedder: null,
        allow_private_addresses: false,
        content_hash: null,
        sync_interval: null,
        attempts: 0,
        last_error: '',
        created_at: createdAt,
        updated_at: createdAt,
      },
      lane: 'local' as const,
      size,
    }));
    await createSourceStore(database).insert('acct_1', sources, () => 'application_id');
    return sources.map((source) => source.record.id);
  }

  async function statusOf(id: string) {
    return database.db
      .selectFrom('sources')
      .select(['embed_status', 'generation', 'chunks'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  }

  const completion = (sourceId: string, generation: number) => ({
    sourceId,
    generation,
    replaces: false,
    chunks: 3,
    pages: 1,
    characters: 10,
    embedder: 'test',
    message: '',
  });

  it('hands out a batch largest first, then the next batch, each job once', async () => {
    await addSources([
      { name: 'small', size: 1 },
      { name: 'big', size: 100 },
      { name: 'middle', size: 10 },
    ]);
    await addSources([{ name: 'later', size: 1_000 }], '2026-11-24T00:00:01.000Z');
    const jobs = createJobStore(database, 'worker-a');
    const first = await jobs.claim('local', 2, 0, LEASE_MS, AT);
    expect(first.map((job) => job.source.name)).toEqual(['big', 'middle']);
    const rest = await jobs.claim('local', 10, 0, LEASE_MS, AT);
    expect(rest.map((job) => job.source.name)).toEqual(['small', 'later']);
    expect(await jobs.claim('local', 10, 0, LEASE_MS, AT)).toEqual([]);
    expect(await jobs.claim('web', 10, 0, LEASE_MS, AT)).toEqual([]);
    expect(first.every((job) => job.generation === 1 && !job.replaces)).toBe(true);
  });

  it('completes a source only for the attempt that holds its job, and makes its generation live', async () => {
    const [id] = await addSources([{ name: 'doc', size: 1 }]);
    const a = createJobStore(database, 'worker-a');
    const b = createJobStore(database, 'worker-b');
    const [claimedByA] = await a.claim('local', 1, 0, LEASE_MS, AT);
    expect(await b.claim('local', 1, 1_000, LEASE_MS, AT)).toEqual([]);
    // A's lease lapses without a heartbeat; B takes the job over, as a new attempt with a new generation.
    const [claimedByB] = await b.claim('local', 1, LEASE_MS + 1, LEASE_MS, AT);
    expect(claimedByB!.generation).toBe(claimedByA!.generation + 1);
    expect(claimedByB!.replaces).toBe(true);
    expect(await a.renew(LEASE_MS + 2, LEASE_MS, [id!])).toEqual(new Set());
    expect(await a.complete([completion(id!, claimedByA!.generation)], AT)).toEqual(new Set());
    expect(await a.fail({ sourceId: id!, generation: claimedByA!.generation }, 'no', AT)).toBe(false);
    expect(await statusOf(id!)).toMatchObject({ embed_status: 'PROCESSING', generation: null });
    expect(await b.complete([completion(id!, claimedByB!.generation)], AT)).toEqual(new Set([id]));
    expect(await statusOf(id!)).toMatchObject({ embed_status: 'COMPLETED', generation: 2, chunks: 3 });
    // Completed once: the job is gone, so no second completion counts.
    expect(await b.complete([completion(id!, claimedByB!.generation)], AT)).toEqual(new Set());
    expect(await database.db.selectFrom('jobs').selectAll().execute()).toEqual([]);
  });

  it('counts attempts on the source, says why the last one ended, and hands back an earlier process’s leases', async () => {
    const [id] = await addSources([{ name: 'counted', size: 1 }]);
    const source = () =>
      database.db
        .selectFrom('sources')
        .select(['attempts', 'last_error', 'embed_status'])
        .where('id', '=', id!)
        .executeTakeFirstOrThrow();
    await createJobStore(database, 'host:/homes/a:100:aaaa').claim('local', 1, 0, LEASE_MS, AT);
    // A process of another home leaves the lease alone; the next process of the same home hands it back at once.
    const next = createJobStore(database, 'host:/homes/a:101:bbbb');
    expect(await next.release(AT, { ownerPrefix: 'host:/homes/b:' })).toBe(0);
    expect(await next.release(AT, { ownerPrefix: 'host:/homes/a:' })).toBe(1);
    let [claimed] = await next.claim('local', 1, 0, LEASE_MS, AT);
    expect(claimed!.attempts).toBe(2);
    expect(await source()).toEqual({ attempts: 2, last_error: '', embed_status: 'PROCESSING' });
    const shown = 'attempt 2 failed because of an internal error';
    await next.retryLater({ sourceId: id!, generation: claimed!.generation }, 'Error: disk', 0, AT, shown);
    expect(await source()).toEqual({ attempts: 2, last_error: shown, embed_status: 'PENDING' });
    await next.claim('local', 1, 0, LEASE_MS, AT);
    // That process stops answering; its lease lapses and another takes the job over.
    const other = createJobStore(database, 'host:/homes/c:300:cccc');
    [claimed] = await other.claim('local', 1, LEASE_MS + 1, LEASE_MS, AT);
    expect(await source()).toEqual({ attempts: 4, last_error: LAPSED_LEASE, embed_status: 'PROCESSING' });
    await other.fail({ sourceId: id!, generation: claimed!.generation }, 'counted is unreadable', AT);
    expect(await source()).toEqual({
      attempts: 4,
      last_error: 'counted is unreadable',
      embed_status: 'FAILED',
    });
  });

  it('renews only the leases of the jobs a process works on; one it forgot lapses for another to take', async () => {
    const [kept, forgotten] = await addSources([
      { name: 'kept', size: 2 },
      { name: 'forgotten', size: 1 },
    ]);
    const a = createJobStore(database, 'worker-a');
    expect(await a.claim('local', 2, 0, LEASE_MS, AT)).toHaveLength(2);
    expect(await a.renew(LEASE_MS - 1, LEASE_MS, [kept!])).toEqual(new Set([kept]));
    const [taken] = await createJobStore(database, 'worker-b').claim('local', 2, LEASE_MS + 1, LEASE_MS, AT);
    expect(taken!.source.id).toBe(forgotten);
    expect(await a.renew(LEASE_MS + 2, LEASE_MS, [kept!, forgotten!])).toEqual(new Set([kept]));
  });

  it('a source deleted while its attempt runs completes nothing', async () => {
    const [id] = await addSources([{ name: 'doomed', size: 1 }]);
    const jobs = createJobStore(database, 'worker-a');
    const [claimed] = await jobs.claim('local', 1, 0, LEASE_MS, AT);
    expect(await createSourceStore(database).delete('acct_1', [id!], AT)).toEqual([id]);
    expect(await jobs.complete([completion(id!, claimed!.generation)], AT)).toEqual(new Set());
    expect(await database.db.selectFrom('chunk_purges').select('source_id').execute()).toEqual([
      { source_id: id },
    ]);
  });

  it('retries later with backoff, fails for good keeping earlier chunks live, and hands leases back', async () => {
    const [id] = await addSources([{ name: 'flaky', size: 1 }]);
    const jobs = createJobStore(database, 'worker-a');
    let [claimed] = await jobs.claim('local', 1, 0, LEASE_MS, AT);
    expect(
      await jobs.retryLater({ sourceId: id!, generation: claimed!.generation }, 'timeout', 5_000, AT),
    ).toBe(true);
    expect(await statusOf(id!)).toMatchObject({ embed_status: 'PENDING' });
    expect(await jobs.nextRunAt('local')).toBe(5_000);
    expect(await jobs.claim('local', 1, 4_999, LEASE_MS, AT)).toEqual([]);
    [claimed] = await jobs.claim('local', 1, 5_000, LEASE_MS, AT);
    expect(claimed!.attempts).toBe(2);
    expect(await jobs.complete([completion(id!, claimed!.generation)], AT)).toEqual(new Set([id]));

    // A new attempt of a COMPLETED source that fails leaves its live chunks as they were.
    await database.db
      .insertInto('jobs')
      .values({
        id: 'job_again',
        source_id: id!,
        lane: 'local',
        size: 1,
        attempts: 0,
        lease_owner: null,
        lease_expires_at: null,
        generation: null,
        run_after: 0,
        last_error: '',
        created_at: AT,
      })
      .execute();
    [claimed] = await jobs.claim('local', 1, 6_000, LEASE_MS, AT);
    expect(await jobs.release(AT)).toBe(1);
    expect(await statusOf(id!)).toMatchObject({ embed_status: 'PENDING', generation: 2 });
    [claimed] = await jobs.claim('local', 1, 6_000, LEASE_MS, AT);
    expect(await jobs.fail({ sourceId: id!, generation: claimed!.generation }, 'unreadable', AT)).toBe(true);
    expect(await statusOf(id!)).toMatchObject({ embed_status: 'FAILED', generation: 2, chunks: 3 });
  });
});
