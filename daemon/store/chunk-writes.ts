import type { ChunkIndex, ChunkSelection } from './chunk-index.ts';
import type { Database } from './database.ts';

/** Attempts settled per pass; their selections go to LanceDB in one delete. */
const WRITES_PER_PASS = 500;

/** An ingestion attempt, by its source and the generation its chunks are written under. */
export interface AttemptKey {
  sourceId: string;
  generation: number;
  /** Its source's earlier attempts too: their chunks went with the ones this attempt replaced. */
  andEarlier?: boolean;
}

export type ChunkWrites = ReturnType<typeof createChunkWrites>;

/**
 * The attempts that may have left chunks to remove (store/schema.ts `chunk_writes`; rows are added when jobs are
 * claimed). The process that runs an attempt removes what it must as it ends, and says so (`settled`); when it
 * dies first, or its delete fails, `sweep` does it for it, from any process: an attempt that no longer holds its
 * job never writes again, so what it left is known from the database alone.
 */
export function createChunkWrites(database: Database, chunkIndex: ChunkIndex) {
  const { db } = database;

  /** What to delete for an attempt that lost or ended its job: nothing, older generations, or its own. */
  function leftovers(write: {
    source_id: string;
    generation: number;
    replaces: number;
    live: number | null;
  }): ChunkSelection | undefined {
    const { source_id: sourceId, generation } = write;
    if (write.live === generation)
      return write.replaces ? { sourceId, generationsBelow: generation } : undefined;
    return { sourceId, generationsFrom: generation, generationsBelow: generation + 1 };
  }

  async function pass(): Promise<number> {
    const writes = await db
      .selectFrom('chunk_writes')
      .leftJoin('sources', 'sources.id', 'chunk_writes.source_id')
      .select([
        'chunk_writes.source_id',
        'chunk_writes.generation',
        'chunk_writes.replaces',
        'sources.generation as live',
      ])
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('jobs')
              .select('jobs.id')
              .whereRef('jobs.source_id', '=', 'chunk_writes.source_id')
              .whereRef('jobs.generation', '=', 'chunk_writes.generation'),
          ),
        ),
      )
      .orderBy('chunk_writes.created_at')
      .limit(WRITES_PER_PASS)
      .execute();
    if (writes.length === 0) return 0;
    await chunkIndex.delete(writes.map(leftovers).filter((selection) => selection !== undefined));
    await forget(writes.map((write) => ({ sourceId: write.source_id, generation: write.generation })));
    return writes.length;
  }

  async function forget(attempts: AttemptKey[]): Promise<void> {
    for (let start = 0; start < attempts.length; start += WRITES_PER_PASS) {
      const slice = attempts.slice(start, start + WRITES_PER_PASS);
      await db
        .deleteFrom('chunk_writes')
        .where((eb) =>
          eb.or(
            slice.map((attempt) =>
              eb.and([
                eb('source_id', '=', attempt.sourceId),
                eb('generation', attempt.andEarlier ? '<=' : '=', attempt.generation),
              ]),
            ),
          ),
        )
        .execute();
    }
  }

  return {
    /** The attempts' leftovers are removed (or they wrote none): nothing is left for a sweep to do. */
    settled: forget,

    /** Removes what attempts that no longer hold their jobs left behind; resolves when none is left. */
    async sweep(): Promise<void> {
      while ((await pass()) === WRITES_PER_PASS) {}
    },
  };
}
