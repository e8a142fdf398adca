import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Statements kept prepared: the queries are a fixed set, but an `IN (…)` list makes one per length. */
const PREPARED_STATEMENTS = 500;

/**
 * Kysely's SQLite dialect drives better-sqlite3's interface; Node's built-in `node:sqlite` has the same
 * synchronous shape under other names, so this adapter is all it takes to need no native package.
 * Whether a statement returns rows is read off its text: `StatementSync.columns()` would say it, but only
 * from Node 22.16, and Kysely's compiled SQL never holds a value (they are parameters), so the text is safe.
 */
export function nodeSqliteDatabase(path: string): { database: SqliteDatabase; native: DatabaseSync } {
  const native = new DatabaseSync(path);
  const prepared = new Map<string, StatementSync>();

  function prepare(sql: string): StatementSync {
    let statement = prepared.get(sql);
    if (statement) return statement;
    statement = native.prepare(sql);
    if (prepared.size >= PREPARED_STATEMENTS) prepared.clear();
    prepared.set(sql, statement);
    return statement;
  }

  const database: SqliteDatabase = {
    close: () => native.close(),
    prepare(sql: string): SqliteStatement {
      // SQLite rolls a transaction back itself on some errors (a full disk); Kysely's own rollback then finds
      // none, and its error would hide the one that matters.
      if (/^\s*rollback\s*$/i.test(sql)) return rollback(native);
      const statement = prepare(sql);
      const values = (parameters: ReadonlyArray<unknown>) => parameters.map(toSqliteValue);
      return {
        reader: /^\s*(select|with|pragma|values)\b|\breturning\b/i.test(sql),
        all: (parameters) => statement.all(...values(parameters)),
        run: (parameters) => statement.run(...values(parameters)),
        iterate: (parameters) => statement.iterate(...values(parameters)),
      };
    },
  };
  return { database, native };
}

function rollback(native: DatabaseSync): SqliteStatement {
  const run = () => {
    // isTransaction is there from Node 22.16; before, SQLite's own complaint tells the same.
    if (native.isTransaction !== false) {
      try {
        native.exec('rollback');
      } catch (error) {
        if (!/no transaction is active/.test((error as Error).message)) throw error;
      }
    }
    return { changes: 0, lastInsertRowid: 0 };
  };
  return { reader: false, all: () => [], run, iterate: () => [][Symbol.iterator]() };
}

type SqliteValue = null | number | bigint | string | Uint8Array;

/** node:sqlite binds only these; booleans are stored as 0 and 1, as SQLite itself has no boolean. */
function toSqliteValue(value: unknown): SqliteValue {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value as SqliteValue;
}
