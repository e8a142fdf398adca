import type { ListQuery } from '../../src/api/common.ts';

/**
 * Newest first, then the contract's optional paging. Ids are time-sortable, so comparing them orders by
 * creation, and `after` works even when the item it names has been deleted since.
 */
export function newestFirst<T extends { id: string }>(records: T[], query: ListQuery = {}): T[] {
  let sorted = records.toSorted((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  const { after, limit } = query;
  if (after) sorted = sorted.filter((record) => record.id < after);
  return limit ? sorted.slice(0, limit) : sorted;
}
