import type { SelectQueryBuilder } from 'kysely';
import { invalidRequest } from '../errors.ts';

export interface Page {
  limit?: number | undefined;
  after?: string | undefined;
}

/** Ids are a type prefix and a 26-character ULID (daemon/ids.ts). */
const ID_PATTERN = /^[a-z]+_[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * Newest first, then the contract's optional paging: keyset on the id, so a page costs the same wherever it
 * starts and `after` still works when the item it names has been deleted since. An `after` that cannot be an
 * id of this list (another resource's id, or no id at all) is the caller's mistake: answering the whole list
 * would hide it.
 */
export function newestFirst<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  idColumn: string,
  page: Page,
  prefix: string,
): SelectQueryBuilder<DB, TB, O> {
  let paged = query.orderBy(idColumn as never, 'desc');
  if (page.after !== undefined) {
    if (!ID_PATTERN.test(page.after) || !page.after.startsWith(`${prefix}_`)) {
      throw invalidRequest(`after must be the id of an item of this list (${prefix}_…)`, 'after');
    }
    paged = paged.where(idColumn as never, '<', page.after as never);
  }
  if (page.limit !== undefined) paged = paged.limit(page.limit);
  return paged;
}
