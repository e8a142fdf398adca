import { monotonicFactory } from 'ulid';

const ulid = monotonicFactory();

export type IdPrefix = 'app' | 'src' | 'file' | 'conv' | 'msg' | 'key' | 'acct' | 'chunk';

/** A type prefix and a time-sortable random part, so ids sort by creation time. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${ulid()}`;
}
