import type { SelectQueryBuilder } from 'kysely';
import type { Database } from './database.ts';

/**
 * Keeps the rows a transaction read from being deleted until it commits, where the database needs telling.
 * A row added under a parent that a concurrent delete removes (a source under its application) would otherwise
 * fail on PostgreSQL, whose transactions see others' commits between statements; SQLite runs one writer at a
 * time, so its transactions never interleave.
 */
export function sharedLock<DB, TB extends keyof DB, O>(
  database: Database,
  query: SelectQueryBuilder<DB, TB, O>,
): SelectQueryBuilder<DB, TB, O> {
  return database.kind === 'postgres' ? query.forShare() : query;
}

/**
 * Locks the rows a transaction read until it commits, so two transactions that change the same rows after
 * reading them (two updates of one source) run one after the other. SQLite runs one writer at a time already.
 */
export function exclusiveLock<DB, TB extends keyof DB, O>(
  database: Database,
  query: SelectQueryBuilder<DB, TB, O>,
): SelectQueryBuilder<DB, TB, O> {
  return database.kind === 'postgres' ? query.forUpdate() : query;
}
