import type { Database } from './database.ts';

export interface QueueStatus {
  /** Jobs no process holds: queued, or waiting for a retry. */
  waiting: number;
  /** Jobs a process is running (or was, until its lease lapses). */
  leased: number;
  /** Sources whose ingestion failed, of every account. */
  failed: number;
}

/** The ingestion queue of every process sharing the database, as GET /health reports it. */
export async function queueStatus(database: Database): Promise<QueueStatus> {
  const { db } = database;
  const jobs = await db
    .selectFrom('jobs')
    .select((eb) => [eb.fn.countAll<number>().as('all'), eb.fn.count<number>('lease_owner').as('leased')])
    .executeTakeFirstOrThrow();
  // Counted through the partial index sources_failed (migration 0003), not the whole table.
  const failed = await db
    .selectFrom('sources')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('embed_status', '=', 'FAILED')
    .executeTakeFirstOrThrow();
  return {
    waiting: Number(jobs.all) - Number(jobs.leased),
    leased: Number(jobs.leased),
    failed: Number(failed.count),
  };
}
