import type { Logger } from '../logger.ts';
import type { ChunkIndex, ChunkRecord } from '../store/chunk-index.ts';

/**
 * A LanceDB commit costs 15 to 40 ms whatever its size, and each leaves a data file that later commits and the
 * next index refresh pay for. While more sources are being prepared, their chunks wait for each other up to
 * this many rows (8 MB of 1,024-dimension vectors)...
 */
const ROWS_PER_GROUP = 2_000;
/** ...or this long, so a slow source being prepared beside them delays their commit by at most this. */
const MAX_GROUP_WAIT_MS = 1_000;
/** A group this large means a bulk ingestion; the few sources many users add at once make groups of tens. */
const BULK_GROUP_ROWS = 500;
/**
 * A second after the last commit the chunk indexes are refreshed, so searches after a burst, or between the
 * sources many users add, stop scanning unindexed rows and small data files. Not while a bulk ingestion (groups
 * of hundreds of rows) still has sources to prepare, though: a refresh takes a second or more of the CPU it
 * needs; its refreshes come from the index's own bounds, and this one after its last group.
 */
const QUIET_MS_BEFORE_REFRESH = 1_000;

interface Waiting {
  records: ChunkRecord[];
  vectors: Float32Array[];
  signal: AbortSignal;
  resolve(): void;
  reject(error: unknown): void;
}

export type CommitGroups = ReturnType<typeof createCommitGroups>;

/**
 * Groups the chunks of sources prepared close together into one commit. A source prepared alone is committed
 * at once; during a bulk ingestion (`morePrepared` says sources are still being prepared) chunks wait until a
 * group is full, the preparing ends, or the wait runs out.
 */
export function createCommitGroups(chunkIndex: ChunkIndex, morePrepared: () => boolean, logger: Logger) {
  let waiting: Waiting[] = [];
  let rows = 0;
  let timer: NodeJS.Timeout | undefined;
  let quietRefresh: NodeJS.Timeout | undefined;
  let stopped = false;
  /** The last group was a bulk ingestion's. */
  let bulk = false;

  function refreshWhenQuiet(): void {
    clearTimeout(quietRefresh);
    quietRefresh = setTimeout(() => {
      if (stopped || (bulk && (waiting.length > 0 || morePrepared()))) return;
      chunkIndex
        .refresh()
        .catch((error: unknown) => logger.log('warn', 'index refresh failed', { error: String(error) }));
    }, QUIET_MS_BEFORE_REFRESH).unref();
  }

  function flush(): void {
    bulk = rows >= BULK_GROUP_ROWS;
    clearTimeout(timer);
    timer = undefined;
    const group = waiting;
    waiting = [];
    rows = 0;
    // Queued in one turn, the adds go into one commit (the index groups adds queued while it is busy). A source
    // deleted while it waited is left out: its delete is queued already and would run before the add.
    const adds = group.map(({ records, vectors, signal, resolve, reject }) => {
      if (signal.aborted) return reject(signal.reason);
      return chunkIndex.add(records, vectors).then(resolve, reject);
    });
    void Promise.all(adds).then(refreshWhenQuiet);
  }

  return {
    /** Resolves once the chunks are committed with their group; rejects if `signal` aborts before that starts. */
    commit(records: ChunkRecord[], vectors: Float32Array[], signal: AbortSignal): Promise<void> {
      return new Promise((resolve, reject) => {
        waiting.push({ records, vectors, signal, resolve, reject });
        rows += records.length;
        if (rows >= ROWS_PER_GROUP || !morePrepared()) flush();
        else timer ??= setTimeout(flush, MAX_GROUP_WAIT_MS);
      });
    },

    /** Call when a preparation ends without chunks: the group may have been waiting for it alone. */
    preparationEnded(): void {
      if (waiting.length > 0 && !morePrepared()) flush();
    },

    /** Commits what is waiting now and refreshes no more: the daemon is stopping. */
    stop(): void {
      stopped = true;
      clearTimeout(quietRefresh);
      flush();
    },
  };
}

/**
 * Rows held by sources waiting for their commit. Reservations are served in order; one larger than the limit
 * passes once nothing else is held, so every source gets its turn.
 */
export function createRowBudget(limit: number) {
  let held = 0;
  const waiting: { rows: number; wake(): void }[] = [];
  const fits = (rows: number): boolean => held === 0 || held + rows <= limit;
  return {
    async reserve(rows: number): Promise<void> {
      if (waiting.length === 0 && fits(rows)) {
        held += rows;
        return;
      }
      // `release` counts the rows in before waking, so no later reservation can slip in between.
      await new Promise<void>((wake) => waiting.push({ rows, wake }));
    },
    release(rows: number): void {
      held -= rows;
      while (waiting[0] && fits(waiting[0].rows)) {
        const next = waiting.shift()!;
        held += next.rows;
        next.wake();
      }
    },
  };
}
