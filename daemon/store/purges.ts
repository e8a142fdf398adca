import type { ChunkIndex, ChunkSelection } from './chunk-index.ts';
import type { ChunkWrites } from './chunk-writes.ts';
import type { Database } from './database.ts';

/** Purges per LanceDB delete. */
const PURGES_PER_PASS = 500;
/**
 * A purge runs again this long after its first pass, then goes. An ingestion attempt that was already
 * committing chunks when its source was deleted can add them after the first pass; it loses its job at once,
 * and its own clean-up removes them, but a kill in between would leave them for good without a second pass.
 * Longer than a lease (services/ingestion.ts), past which no attempt of the deleted sources can still write.
 */
const REPEAT_AFTER_MS = 120_000;

export type ChunkPurges = ReturnType<typeof createChunkPurges>;

/**
 * Removes from LanceDB the chunks of deleted applications and sources. A delete commits in SQL, which hides its
 * chunks at once (search keeps only chunks of live sources), and leaves a purge row; this deletes the chunks,
 * twice (see REPEAT_AFTER_MS), then the row, so a crash at any point only makes a later pass delete them again.
 * It also sweeps what ingestion attempts that lost their jobs left behind (chunk-writes.ts).
 */
export function createChunkPurges(
  database: Database,
  chunkIndex: ChunkIndex,
  writes: ChunkWrites,
  onError: (error: unknown) => void,
) {
  const { db } = database;
  let running: Promise<void> | undefined;
  let again = false;

  /** One pass over up to PURGES_PER_PASS purges that are due (with `all`, every one); returns how many. */
  async function pass(all: boolean, offset: number): Promise<number> {
    const now = Date.now();
    let query = db.selectFrom('chunk_purges').selectAll().orderBy('id').offset(offset).limit(PURGES_PER_PASS);
    if (!all) query = query.where('run_after', '<=', now);
    const purges = await query.execute();
    if (purges.length === 0) return 0;
    const selections: ChunkSelection[] = purges.map((purge) =>
      purge.application_id ? { applicationId: purge.application_id } : { sourceId: purge.source_id! },
    );
    await chunkIndex.delete(selections);
    const first = purges.filter((purge) => purge.passes === 0).map((purge) => purge.id);
    const done = purges
      .filter((purge) => purge.passes > 0 && purge.run_after <= now)
      .map((purge) => purge.id);
    if (first.length > 0)
      await db
        .updateTable('chunk_purges')
        .set({ passes: 1, run_after: now + REPEAT_AFTER_MS })
        .where('id', 'in', first)
        .execute();
    if (done.length > 0) await db.deleteFrom('chunk_purges').where('id', 'in', done).execute();
    return purges.length - done.length;
  }

  async function drain(all: boolean): Promise<void> {
    do {
      again = false;
      // Rows kept for their second pass stay in the table: the next page starts past them.
      let kept = 0;
      for (;;) {
        const left = await pass(all, kept);
        if (left === 0) break;
        kept += left;
        if (left < PURGES_PER_PASS) break;
      }
      await writes.sweep();
    } while (again);
  }

  /** Runs the purges that are due, or with `all` every one (at start, when no attempt of this daemon runs). */
  function run(options: { all?: boolean } = {}): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = drain(options.all ?? false).finally(() => {
      running = undefined;
    });
    return running;
  }

  return {
    run,
    /** As `run`, for callers that do not wait: a failure is reported, and the rows stay for the next pass. */
    soon(): void {
      run().catch(onError);
    },
  };
}
