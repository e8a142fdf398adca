import type { ChunkIndex, ChunkRecord, ChunkSelection } from './chunk-index.ts';
import type { AttemptKey, ChunkWrites } from './chunk-writes.ts';
import type { Completion, JobStore } from './jobs.ts';

/** An attempt's chunks, ready to store, and what its source becomes once they are. */
export interface FinishedAttempt {
  completion: Completion;
  records: ChunkRecord[];
  vectors: Float32Array[];
  /** Aborted when the attempt lost its job (its source deleted): its chunks are then not added at all. */
  signal: AbortSignal;
}

interface Waiting {
  attempt: FinishedAttempt;
  resolve(completed: boolean): void;
  reject(error: unknown): void;
}

/**
 * Rows per LanceDB commit; bounds the memory one commit holds. A commit's vectors are copied into an Arrow batch
 * and again for LanceDB, and the copies wait for a garbage collection: 20,000 sources peaked at a median of
 * 840 MiB with 4,000 rows a commit, 773 with 2,000, 742 with 1,000, and no lower with 500, at the same
 * ingestion speed (bench/storage.ts, SQLite, three to six runs each).
 */
const MAX_ROWS_PER_COMMIT = 1_000;

export type ChunkCommits = ReturnType<typeof createChunkCommits>;

/**
 * Stores finished attempts: their chunks in LanceDB, then, in one SQL transaction, their sources COMPLETED with
 * the new chunks live. That order is what makes it safe: until the transaction commits, the new chunks are of a
 * generation no search shows; after it, the old generation is hidden and then deleted. An attempt that lost its
 * job meanwhile (its source deleted, replaced or its lease taken over) completes nothing, and its chunks go.
 *
 * Attempts that finish while a commit runs wait for the next, and go in it together: a LanceDB commit costs
 * milliseconds whatever its size, and a durable SQL commit an fsync, so under load each covers many sources.
 */
export function createChunkCommits(deps: {
  chunkIndex: ChunkIndex;
  jobs: JobStore;
  writes: ChunkWrites;
  now: () => string;
}) {
  const { chunkIndex, jobs, writes, now } = deps;
  let waiting: Waiting[] = [];
  let flushing: Promise<void> | undefined;

  function take(): Waiting[] {
    let rows = 0;
    let end = 0;
    for (const item of waiting) {
      if (end > 0 && rows + item.attempt.records.length > MAX_ROWS_PER_COMMIT) break;
      rows += item.attempt.records.length;
      end += 1;
    }
    const taken = waiting.slice(0, end);
    waiting = waiting.slice(end);
    return taken;
  }

  async function commitGroup(all: Waiting[]): Promise<void> {
    for (const item of all) if (item.attempt.signal.aborted) item.resolve(false);
    const group = all.filter((item) => !item.attempt.signal.aborted);
    if (group.length === 0) return;
    const attempts = group.map((item) => item.attempt);
    await chunkIndex.add(
      attempts.flatMap((attempt) => attempt.records),
      attempts.flatMap((attempt) => attempt.vectors),
    );
    // LanceDB does not fsync: the chunks reach the disk before the durable row that makes them live.
    await chunkIndex.makeDurable();
    const completed = await jobs.complete(
      attempts.map((attempt) => attempt.completion),
      now(),
    );
    const leftovers: ChunkSelection[] = [];
    const cleaned: AttemptKey[] = [];
    for (const { completion } of attempts) {
      const { sourceId, generation, keeps } = completion;
      if (!completed.has(sourceId)) {
        leftovers.push({ sourceId, generationsFrom: generation, generationsBelow: generation + 1 });
        cleaned.push({ sourceId, generation });
      } else if (keeps !== undefined) {
        // The kept generation stays; older ones, and any of attempts cut short since, go.
        leftovers.push({ sourceId, generationsBelow: keeps });
        leftovers.push({ sourceId, generationsFrom: keeps + 1, generationsBelow: generation + 1 });
        cleaned.push({ sourceId, generation, andEarlier: true });
      } else if (completion.replaces) {
        leftovers.push({ sourceId, generationsBelow: generation });
        cleaned.push({ sourceId, generation, andEarlier: true });
      } else cleaned.push({ sourceId, generation });
    }
    // Not awaited: the sources are done; the deletes queue behind this commit on the index's write lane. If they
    // fail or the process dies first, the attempts' rows in chunk_writes stay, and a sweep deletes the chunks.
    const deleted = leftovers.length > 0 ? chunkIndex.delete(leftovers) : Promise.resolve();
    deleted.then(() => writes.settled(cleaned)).catch(() => {});
    for (const item of group) item.resolve(completed.has(item.attempt.completion.sourceId));
  }

  async function flush(): Promise<void> {
    // Attempts finished in the same turn as the first go into its commit.
    await Promise.resolve();
    while (waiting.length > 0) {
      const group = take();
      await commitGroup(group).catch((error: unknown) => {
        for (const item of group) item.reject(error);
      });
    }
    flushing = undefined;
  }

  return {
    /** Resolves with whether the source was completed (false: the attempt had lost its job). */
    commit(attempt: FinishedAttempt): Promise<boolean> {
      return new Promise((resolve, reject) => {
        waiting.push({ attempt, resolve, reject });
        flushing ??= flush();
      });
    },

    /** Resolves once everything handed to `commit` so far is stored. */
    async idle(): Promise<void> {
      while (flushing) await flushing;
    },
  };
}
