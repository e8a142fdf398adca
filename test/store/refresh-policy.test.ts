import { describe, expect, it } from 'vitest';
import { decideRefresh, type RefreshState } from '../../daemon/store/refresh-policy.ts';

const quiet: RefreshState = {
  unindexedRows: 100,
  indexedRows: 10_000,
  commitsSinceRefresh: 3,
  msSinceLastCommit: 5_000,
  msSinceLastRefresh: 60_000,
  lastRefreshMs: 1_000,
  busy: false,
  vectorIndexMissing: false,
};

describe('decideRefresh', () => {
  it('does nothing when nothing was written since the last refresh', () => {
    expect(decideRefresh({ ...quiet, unindexedRows: 0, commitsSinceRefresh: 0 })).toEqual({ kind: 'none' });
  });

  it('refreshes mid-burst past 5,000 new rows, half the indexed rows, or 50 commits', () => {
    const busy = { ...quiet, busy: true, msSinceLastCommit: 0 };
    expect(decideRefresh({ ...busy, unindexedRows: 4_999 })).toEqual({ kind: 'none' });
    expect(decideRefresh({ ...busy, unindexedRows: 5_000 })).toEqual({ kind: 'now' });
    expect(decideRefresh({ ...busy, unindexedRows: 5_000, indexedRows: 20_000 })).toEqual({ kind: 'none' });
    expect(decideRefresh({ ...busy, unindexedRows: 10_000, indexedRows: 20_000 })).toEqual({ kind: 'now' });
    expect(decideRefresh({ ...busy, commitsSinceRefresh: 50 })).toEqual({ kind: 'now' });
  });

  it('builds a missing vector index as soon as a burst is over, without waiting for its budget', () => {
    const missing = { ...quiet, unindexedRows: 0, commitsSinceRefresh: 0, vectorIndexMissing: true };
    expect(decideRefresh({ ...missing, busy: true })).toEqual({ kind: 'none' });
    expect(decideRefresh({ ...missing, msSinceLastCommit: 300 })).toEqual({ kind: 'later', ms: 700 });
    expect(decideRefresh({ ...missing, msSinceLastRefresh: 0, lastRefreshMs: 5_000 })).toEqual({
      kind: 'now',
    });
  });

  it('waits for a second without commits after a burst', () => {
    expect(decideRefresh({ ...quiet, msSinceLastCommit: 300 })).toEqual({ kind: 'later', ms: 700 });
  });

  it('spends at most a fifth of the time refreshing, unless a tenth of the table waits', () => {
    const recent = { ...quiet, lastRefreshMs: 2_000, msSinceLastRefresh: 3_000 };
    expect(decideRefresh(recent)).toEqual({ kind: 'later', ms: 5_000 });
    expect(decideRefresh({ ...recent, unindexedRows: 1_000 })).toEqual({ kind: 'now' });
    expect(decideRefresh({ ...recent, unindexedRows: 1_000, indexedRows: 20_000 })).toEqual({
      kind: 'later',
      ms: 5_000,
    });
    expect(decideRefresh({ ...recent, msSinceLastRefresh: 8_000 })).toEqual({ kind: 'now' });
  });
});
