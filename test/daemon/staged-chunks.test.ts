import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { Logger } from '../../daemon/logger.ts';
import { createCommitGroups, createRowBudget } from '../../daemon/services/staged-chunks.ts';
import type { ChunkIndex, ChunkRecord } from '../../daemon/store/chunk-index.ts';

/** Records each add with the names of its records, and each refresh; the only methods the groups call. */
function recordingIndex() {
  const adds: string[][] = [];
  const refreshes: number[] = [];
  const index = {
    add: async (records: ChunkRecord[]) => {
      adds.push(records.map((record) => record.text));
    },
    refresh: async () => {
      refreshes.push(adds.length);
    },
  } as unknown as ChunkIndex;
  return { index, adds, refreshes };
}

const logger: Logger = { log: () => {}, close: async () => {} };

function rows(name: string, count: number): ChunkRecord[] {
  return Array.from({ length: count }, (_, position) => ({
    index: position,
    page: 1,
    text: `${name}${position}`,
    headings: [],
    sourceId: name,
    applicationId: 'app',
    accountId: 'acc',
  }));
}

const live = new AbortController().signal;

describe('commit groups', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  test('a source prepared alone is committed at once', async () => {
    const { index, adds } = recordingIndex();
    const groups = createCommitGroups(index, () => false, logger);
    await groups.commit(rows('a', 2), [], live);
    expect(adds).toEqual([['a0', 'a1']]);
  });

  test('while more are being prepared, chunks wait until the group is full', async () => {
    const { index, adds } = recordingIndex();
    const groups = createCommitGroups(index, () => true, logger);
    const first = groups.commit(rows('a', 1_500), [], live);
    await vi.advanceTimersByTimeAsync(10);
    expect(adds).toEqual([]);
    const second = groups.commit(rows('b', 600), [], live);
    await Promise.all([first, second]);
    expect(adds.map((add) => add.length)).toEqual([1_500, 600]);
  });

  test('the wait ends when the last preparation ends without chunks, or after a second', async () => {
    const { index, adds } = recordingIndex();
    let preparing = true;
    const groups = createCommitGroups(index, () => preparing, logger);
    const waiting = groups.commit(rows('a', 1), [], live);
    preparing = false;
    groups.preparationEnded();
    await waiting;
    expect(adds).toEqual([['a0']]);

    preparing = true;
    const late = groups.commit(rows('b', 1), [], live);
    await vi.advanceTimersByTimeAsync(999);
    expect(adds).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await late;
    expect(adds).toEqual([['a0'], ['b0']]);
  });

  test('a source cancelled while it waits is left out of its group', async () => {
    const { index, adds } = recordingIndex();
    const groups = createCommitGroups(index, () => true, logger);
    const cancelled = new AbortController();
    const doomed = groups.commit(rows('gone', 1), [], cancelled.signal);
    const kept = groups.commit(rows('kept', 1), [], live);
    cancelled.abort(new Error('deleted'));
    groups.stop();
    await expect(doomed).rejects.toThrow('deleted');
    await kept;
    expect(adds).toEqual([['kept0']]);
  });
});

describe('index refreshes after commits', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  test('come a second after the last commit, also while a small group forms', async () => {
    const { index, refreshes } = recordingIndex();
    let preparing = false;
    const groups = createCommitGroups(index, () => preparing, logger);
    await groups.commit(rows('a', 1), [], live);
    preparing = true;
    await vi.advanceTimersByTimeAsync(500);
    void groups.commit(rows('b', 1), [], live);
    await vi.advanceTimersByTimeAsync(499);
    expect(refreshes).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(refreshes).toEqual([1]);
  });

  test('wait while a bulk ingestion fills group after group, and follow its last', async () => {
    const { index, refreshes } = recordingIndex();
    let preparing = true;
    const groups = createCommitGroups(index, () => preparing, logger);
    await groups.commit(rows('full', 2_000), [], live);
    // Sources are still being prepared, none has chunks waiting yet: no refresh to compete with them.
    await vi.advanceTimersByTimeAsync(1_500);
    expect(refreshes).toEqual([]);
    const next = groups.commit(rows('next', 600), [], live);
    await vi.advanceTimersByTimeAsync(500);
    expect(refreshes).toEqual([]);
    preparing = false;
    await vi.advanceTimersByTimeAsync(500);
    await next;
    await vi.advanceTimersByTimeAsync(999);
    expect(refreshes).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(refreshes).toEqual([2]);
  });

  test('stop after the daemon stops', async () => {
    const { index, refreshes } = recordingIndex();
    const groups = createCommitGroups(index, () => false, logger);
    await groups.commit(rows('a', 1), [], live);
    groups.stop();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(refreshes).toEqual([]);
  });
});

describe('row budget', () => {
  test('reservations past the limit wait, in order, until rows are released', async () => {
    const budget = createRowBudget(10);
    const order: string[] = [];
    await budget.reserve(8);
    const big = budget.reserve(5).then(() => order.push('big'));
    const small = budget.reserve(1).then(() => order.push('small'));
    await Promise.resolve();
    expect(order).toEqual([]);
    budget.release(8);
    await Promise.all([big, small]);
    expect(order).toEqual(['big', 'small']);
  });

  test('one reservation larger than the limit passes once nothing else is held', async () => {
    const budget = createRowBudget(10);
    await budget.reserve(3);
    let passed = false;
    const huge = budget.reserve(50).then(() => {
      passed = true;
    });
    await Promise.resolve();
    expect(passed).toBe(false);
    budget.release(3);
    await huge;
    expect(passed).toBe(true);
  });
});
