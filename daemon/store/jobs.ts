import type { Transaction } from 'kysely';
import type { Database } from './database.ts';
import type { SourceRecord } from './records.ts';
import type { Lane, Schema } from './schema.ts';
import { recordVersion, type SourceVersion, scheduleNextSync } from './source-versions.ts';
import { toSourceRecord } from './sources.ts';

/** A job this process holds a lease on: its source, and the generation its chunks are written under. */
export interface ClaimedJob {
  source: SourceRecord;
  generation: number;
  /**
   * Whether chunks of other generations may exist (an earlier version, or an attempt cut short) and must go
   * once this attempt's are live. Not for a source's first attempt, the common case: a delete is a commit.
   */
  replaces: boolean;
  attempts: number;
  size: number;
}

/** What an attempt that ended has to say, fenced by its lease: it counts only if the job is still its own. */
export interface AttemptEnd {
  sourceId: string;
  generation: number;
}

export interface Completion extends AttemptEnd {
  replaces: boolean;
  chunks: number;
  pages: number;
  characters: number;
  embedder: string;
  message: string;
  /**
   * The live generation this attempt keeps, having found the content unchanged (it wrote no chunks); without
   * it, the attempt's own generation becomes live.
   */
  keeps?: number;
  /** What the new version was made from (web sources: the pages and their hash), kept for the next re-sync. */
  version?: SourceVersion;
}

export type JobStore = ReturnType<typeof createJobStore>;

/** Leases renewed per UPDATE: SQLite binds at most 32,766 values in one statement. */
const RENEWALS_PER_UPDATE = 500;

/** A source's `last_error` when its attempt's process stopped renewing the lease and another took the job. */
export const LAPSED_LEASE =
  'the process running the previous attempt stopped answering; its lease lapsed and the work started again';

/** Whether chunks of other generations than a claimed attempt's may exist: an earlier attempt came first. */
function replaces(row: { job_generation: number | null; generation: number | null }): boolean {
  return row.job_generation! > 1 || row.generation !== null;
}

/**
 * The ingestion queue: one job row per source to ingest. A process leases jobs (`claim`), keeps its leases
 * alive (`renew`), and ends each one fenced by its lease owner and generation, so an attempt whose lease
 * lapsed (and was taken over) or whose source was deleted or replaced meanwhile changes nothing.
 */
export function createJobStore(database: Database, owner: string) {
  const { db } = database;

  /** Deletes the job if this attempt still holds it; only then may the attempt change its source. */
  async function takeBack(trx: Transaction<Schema>, end: AttemptEnd): Promise<boolean> {
    const result = await trx
      .deleteFrom('jobs')
      .where('source_id', '=', end.sourceId)
      .where('generation', '=', end.generation)
      .where('lease_owner', '=', owner)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  return {
    owner,

    /**
     * Leases up to `limit` jobs of a lane whose turn has come and gives each attempt a new generation. Jobs
     * are taken in the order they were added, and those added together (one batch) largest first: a batch
     * ends when its slowest source does, and a big file started last ran alone while the other workers idled.
     * On PostgreSQL, rows another process is claiming are skipped rather than waited for.
     */
    async claim(lane: Lane, limit: number, now: number, leaseMs: number, at: string): Promise<ClaimedJob[]> {
      return database.transaction(async (trx) => {
        let candidates = trx
          .selectFrom('jobs')
          .select(['id', 'source_id', 'lease_owner'])
          .where('lane', '=', lane)
          .where('run_after', '<=', now)
          .where((eb) => eb.or([eb('lease_owner', 'is', null), eb('lease_expires_at', '<', now)]))
          .orderBy('created_at')
          .orderBy('size', 'desc')
          .orderBy('id')
          .limit(limit);
        if (database.kind === 'postgres') candidates = candidates.forUpdate().skipLocked();
        const jobs = await candidates.execute();
        if (jobs.length === 0) return [];
        const sourceIds = jobs.map((job) => job.source_id);
        await trx
          .updateTable('sources')
          .set((eb) => ({
            last_generation: eb('last_generation', '+', 1),
            attempts: eb('attempts', '+', 1),
            embed_status: 'PROCESSING',
            embed_status_message: '',
            updated_at: at,
          }))
          .where('id', 'in', sourceIds)
          .execute();
        const lapsed = jobs.filter((job) => job.lease_owner !== null).map((job) => job.source_id);
        if (lapsed.length > 0)
          await trx
            .updateTable('sources')
            .set({ last_error: LAPSED_LEASE })
            .where('id', 'in', lapsed)
            .execute();
        await trx
          .updateTable('jobs')
          .set((eb) => ({
            lease_owner: owner,
            lease_expires_at: now + leaseMs,
            attempts: eb('attempts', '+', 1),
            generation: eb
              .selectFrom('sources')
              .select('sources.last_generation')
              .whereRef('sources.id', '=', 'jobs.source_id'),
          }))
          .where(
            'id',
            'in',
            jobs.map((job) => job.id),
          )
          .execute();
        const rows = await trx
          .selectFrom('jobs')
          .innerJoin('sources', 'sources.id', 'jobs.source_id')
          .selectAll('sources')
          .select([
            'jobs.generation as job_generation',
            'jobs.attempts as job_attempts',
            'jobs.size as job_size',
          ])
          .where('jobs.source_id', 'in', sourceIds)
          .execute();
        await trx
          .insertInto('chunk_writes')
          .values(
            rows.map((row) => ({
              source_id: row.id,
              generation: row.job_generation!,
              replaces: replaces(row) ? 1 : 0,
              created_at: at,
            })),
          )
          .execute();
        return rows.map((row) => ({
          source: toSourceRecord(row),
          generation: row.job_generation!,
          replaces: replaces(row),
          attempts: row.job_attempts,
          size: row.job_size,
        }));
      });
    },

    /**
     * Extends the leases this process holds on the jobs of `sourceIds` (those it is working on); returns the
     * sources whose jobs it still holds. A lease it holds but no longer works on lapses, for any process to take.
     */
    async renew(now: number, leaseMs: number, sourceIds: string[]): Promise<Set<string>> {
      const held = new Set<string>();
      for (let start = 0; start < sourceIds.length; start += RENEWALS_PER_UPDATE) {
        const rows = await db
          .updateTable('jobs')
          .set({ lease_expires_at: now + leaseMs })
          .where('lease_owner', '=', owner)
          .where('source_id', 'in', sourceIds.slice(start, start + RENEWALS_PER_UPDATE))
          .returning('source_id')
          .execute();
        for (const row of rows) held.add(row.source_id);
      }
      return held;
    },

    /**
     * Hands jobs back to the queue, their sources PENDING again: this process's at shutdown; with `ownerPrefix`,
     * those of owners named so (an earlier process of this home, which the home's lock proves is gone); with
     * `anyOwner`, every lease, which only a process that owns the whole database (the embedded SQLite) may do.
     */
    async release(at: string, options: { anyOwner?: boolean; ownerPrefix?: string } = {}): Promise<number> {
      return database.transaction(async (trx) => {
        const leased = trx.selectFrom('jobs').select('source_id').where('lease_owner', 'is not', null);
        const held = options.anyOwner
          ? leased
          : options.ownerPrefix !== undefined
            ? leased.where(
                (eb) => eb.fn('substr', ['lease_owner', eb.val(1), eb.val(options.ownerPrefix!.length)]),
                '=',
                options.ownerPrefix,
              )
            : leased.where('lease_owner', '=', owner);
        await trx
          .updateTable('sources')
          .set({ embed_status: 'PENDING', updated_at: at })
          .where('id', 'in', held)
          .execute();
        const released = await trx
          .updateTable('jobs')
          .set({ lease_owner: null, lease_expires_at: null })
          .where('source_id', 'in', held)
          .executeTakeFirst();
        return Number(released.numUpdatedRows);
      });
    },

    /**
     * Marks sources COMPLETED with their new chunks live, each only if its attempt still holds its job; returns
     * those it completed. Call it once the chunks are committed in LanceDB.
     */
    async complete(completions: Completion[], at: string): Promise<Set<string>> {
      return database.transaction(async (trx) => {
        const completed = new Set<string>();
        for (const completion of completions) {
          if (!(await takeBack(trx, completion))) continue;
          await trx
            .updateTable('sources')
            .set({
              embed_status: 'COMPLETED',
              embed_status_message: completion.message,
              chunks: completion.chunks,
              pages: completion.pages,
              characters: completion.characters,
              embedder: completion.embedder,
              generation: completion.keeps ?? completion.generation,
              updated_at: at,
            })
            .where('id', '=', completion.sourceId)
            .execute();
          await recordVersion(trx, completion.sourceId, completion.version, at);
          completed.add(completion.sourceId);
        }
        return completed;
      });
    },

    /** Marks a source FAILED, if its attempt still holds its job. Chunks already live (an earlier version) stay. */
    async fail(end: AttemptEnd, message: string, at: string): Promise<boolean> {
      return database.transaction(async (trx) => {
        if (!(await takeBack(trx, end))) return false;
        await trx
          .updateTable('sources')
          .set((eb) => ({
            embed_status: 'FAILED',
            embed_status_message: message,
            last_error: message,
            chunks: eb.case().when('generation', 'is', null).then(0).else(eb.ref('chunks')).end(),
            updated_at: at,
          }))
          .where('id', '=', end.sourceId)
          .execute();
        await scheduleNextSync(trx, end.sourceId, at);
        return true;
      });
    },

    /** Says how far a running attempt is, in its source's message, while its job is still its own. */
    async progress(end: AttemptEnd, message: string, at: string): Promise<void> {
      await db
        .updateTable('sources')
        .set({ embed_status_message: message, updated_at: at })
        .where('id', '=', end.sourceId)
        .where('embed_status', '=', 'PROCESSING')
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('jobs')
              .select('jobs.id')
              .where('jobs.source_id', '=', end.sourceId)
              .where('jobs.generation', '=', end.generation)
              .where('jobs.lease_owner', '=', owner),
          ),
        )
        .execute();
    },

    /**
     * Puts the job back in the queue until `runAfter`, with the error that ended this attempt (`shown` is what the
     * source's `last_error` says of it).
     */
    async retryLater(
      end: AttemptEnd,
      error: string,
      runAfter: number,
      at: string,
      shown = error,
    ): Promise<boolean> {
      return database.transaction(async (trx) => {
        const result = await trx
          .updateTable('jobs')
          .set({ lease_owner: null, lease_expires_at: null, run_after: runAfter, last_error: error })
          .where('source_id', '=', end.sourceId)
          .where('generation', '=', end.generation)
          .where('lease_owner', '=', owner)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) return false;
        await trx
          .updateTable('sources')
          .set({ embed_status: 'PENDING', last_error: shown, updated_at: at })
          .where('id', '=', end.sourceId)
          .execute();
        return true;
      });
    },

    /** When the next job of a lane may be claimed (undefined: none is queued). */
    async nextRunAt(lane: Lane): Promise<number | undefined> {
      const row = await db
        .selectFrom('jobs')
        .select((eb) => eb.fn.min('run_after').as('next'))
        .where('lane', '=', lane)
        .where('lease_owner', 'is', null)
        .executeTakeFirst();
      return row?.next === null || row?.next === undefined ? undefined : Number(row.next);
    },

    /**
     * Jobs waiting and leased, for health reports and tests. Given `now`, a periodic re-sync not yet due (no
     * attempts, `run_after` later) is not counted as waiting.
     */
    async counts(now?: number): Promise<{ waiting: number; leased: number }> {
      let query = db.selectFrom('jobs');
      if (now !== undefined)
        query = query.where((eb) =>
          eb.or([eb('attempts', '>', 0), eb('run_after', '<=', now), eb('lease_owner', 'is not', null)]),
        );
      const rows = await query
        .select((eb) => [eb.fn.countAll<number>().as('all'), eb.fn.count<number>('lease_owner').as('leased')])
        .executeTakeFirstOrThrow();
      return { waiting: Number(rows.all) - Number(rows.leased), leased: Number(rows.leased) };
    },
  };
}
