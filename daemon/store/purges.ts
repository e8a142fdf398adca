import type { ChunkIndex, ChunkSelection } from './chunk-index.ts';
import type { ChunkWrites } from './chunk-writes.ts';
import type { Database } from './database.ts';

/** Purges per LanceDB delete. */
const PURGES_PER_PASS = 500;

export type ChunkPurges = ReturnType<typeof createChunkPurges>;

/**
 * Removes from LanceDB the chunks of deleted applications and sources. A delete commits in SQL, which hides its
 * chunks at once (search keeps only chunks of live sources), and leaves a purge row; this deletes the chunks
 * and then the row, so a crash in between only makes the next pass delete them again. It also sweeps what
 * ingestion attempts that lost their jobs left behind (chunk-writes.ts).
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

  async function pass(): Promise<number> {
    const purges = await db
      .selectFrom('chunk_purges')
      .selectAll()
      .orderBy('id')
      .limit(PURGES_PER_PASS)
      .execute();
    if (purges.length === 0) return 0;
    const selections: ChunkSelection[] = purges.map((purge) =>
      purge.application_id ? { applicationId: purge.application_id } : { sourceId: purge.source_id! },
    );
    await chunkIndex.delete(selections);
    await db
      .deleteFrom('chunk_purges')
      .where(
        'id',
        'in',
        purges.map((purge) => purge.id),
      )
      .execute();
    return purges.length;
  }

  async function drain(): Promise<void> {
    do {
      again = false;
      while ((await pass()) === PURGES_PER_PASS) {}
      await writes.sweep();
    } while (again);
  }

  function run(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = drain().finally(() => {
      running = undefined;
    });
    return running;
  }

  return {
    /** Starts a purge, or makes the one running look again when it ends; resolves when none is left. */
    run,
    /** As `run`, for callers that do not wait: a failure is reported, and the rows stay for the next pass. */
    soon(): void {
      run().catch(onError);
    },
  };
}
