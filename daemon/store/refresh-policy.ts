/**
 * When to refresh the chunk indexes (LanceDB's optimize: compaction, full-text index update, cleanup). Rows
 * added since the last refresh are searched by a flat scan, which is slow (a full-text search took 60 ms over
 * 1,000 unindexed rows and 7 ms once they were indexed), but a refresh rewrites the whole table and its
 * indexes, so its cost grows with the table (about a second per 10,000 rows): refreshing at a fixed pace
 * would slow a long ingestion down without bound, and refreshing in the middle of a burst pays for it twice.
 */
export interface RefreshState {
  unindexedRows: number;
  indexedRows: number;
  /** Each commit leaves a data file that every later write and search pays for until compaction. */
  commitsSinceRefresh: number;
  msSinceLastCommit: number;
  msSinceLastRefresh: number;
  /** How long the last refresh took. */
  lastRefreshMs: number;
  /** More chunks are on their way (sources are being ingested): the end of the burst refreshes. */
  busy: boolean;
  /**
   * The table is large enough for a vector index and has none that covers it: vector search scans every row
   * (150 ms at 20,000 chunks, against 15 with the index), so the end of a burst builds it without waiting.
   */
  vectorIndexMissing: boolean;
}

export type RefreshDecision = { kind: 'now' } | { kind: 'later'; ms: number } | { kind: 'none' };

/** Past either bound, refresh even mid-burst: 2,000 rows cost a bulk ingestion a fifth of its rate. */
const UNINDEXED_ROWS_BOUND = 5_000;
/** ...or past this share of the indexed rows, so the rewriting adds up to a few times the table. */
const UNINDEXED_SHARE_BOUND = 0.5;
/** Measured: a commit took 10 ms after 50 commits, 150 ms after 1,500. */
const COMMITS_BOUND = 50;
/** After a burst, wait this long without commits before refreshing. */
const QUIET_MS = 1_000;
/** A quiet refresh waits until the time since the last one is this many times what it took... */
const QUIET_TIME_PER_REFRESH_TIME = 4;
/**
 * ...unless the rows waiting are this share of the indexed rows and this many: then they pay for it, and
 * searches after a bulk ingestion are fast a second after it ends. The floor keeps a steady trickle of small
 * sources from refreshing a small table after every lull.
 */
const WORTH_IT_SHARE = 0.1;
const WORTH_IT_ROWS = 1_000;

export function decideRefresh(state: RefreshState): RefreshDecision {
  if (state.unindexedRows === 0 && state.commitsSinceRefresh === 0 && !state.vectorIndexMissing)
    return { kind: 'none' };
  const pastBounds =
    state.unindexedRows >= Math.max(UNINDEXED_ROWS_BOUND, state.indexedRows * UNINDEXED_SHARE_BOUND) ||
    state.commitsSinceRefresh >= COMMITS_BOUND;
  if (pastBounds) return { kind: 'now' };
  if (state.busy) return { kind: 'none' };
  if (state.msSinceLastCommit < QUIET_MS) return { kind: 'later', ms: QUIET_MS - state.msSinceLastCommit };
  const worthIt =
    state.vectorIndexMissing ||
    state.unindexedRows >= Math.max(WORTH_IT_ROWS, state.indexedRows * WORTH_IT_SHARE);
  const budget = QUIET_TIME_PER_REFRESH_TIME * state.lastRefreshMs - state.msSinceLastRefresh;
  if (!worthIt && budget > 0) return { kind: 'later', ms: budget };
  return { kind: 'now' };
}
