import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  type DatabaseConnection,
  type Dialect,
  type Driver,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  type Transaction,
} from 'kysely';
import { CkbError, diskFull } from '../errors.ts';
import type { Schema } from './schema.ts';
import { nodeSqliteDatabase } from './sqlite.ts';

export type DatabaseKind = 'sqlite' | 'postgres';

export interface Database {
  readonly kind: DatabaseKind;
  readonly db: Kysely<Schema>;
  /** Where the data is, for logs and messages: a file path, or host, port and database name (no password). */
  readonly description: string;
  /**
   * Runs `work` in one transaction: all of it is committed (durably) or none. A busy database or a
   * serialization conflict runs it again, so `work` must only touch the database.
   */
  transaction<T>(work: (transaction: Transaction<Schema>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** How to reach the metadata database: the embedded SQLite file, or a PostgreSQL server. */
export type DatabaseLocation = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

/** Thrown at start when the database cannot be opened; its message is the whole story, with no secret in it. */
export class DatabaseStartError extends Error {
  override name = 'DatabaseStartError';
}

/** A transaction that may succeed if run again: SQLite was busy past its timeout, or PostgreSQL saw a conflict. */
class RetryableDatabaseError extends Error {
  override name = 'RetryableDatabaseError';
}

const TRANSACTION_ATTEMPTS = 5;
/** How long SQLite waits for a lock another connection (a backup, the sqlite3 shell) holds. */
const SQLITE_BUSY_TIMEOUT_MS = 5_000;
const POSTGRES_POOL_SIZE = 10;
const POSTGRES_CONNECT_TIMEOUT_MS = 5_000;

export async function openDatabase(location: DatabaseLocation): Promise<Database> {
  return location.kind === 'sqlite' ? openSqlite(location.path) : openPostgres(location.url);
}

function openSqlite(path: string): Database {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  let opened: ReturnType<typeof nodeSqliteDatabase>;
  try {
    opened = nodeSqliteDatabase(path);
    // WAL lets readers go on beside the writer; FULL makes every commit durable across a power cut (NORMAL
    // would only survive a crash of the process). Foreign keys carry deletes to an application's children.
    opened.native.exec(`
      PRAGMA journal_mode = WAL;
      PRAGMA synchronous = FULL;
      PRAGMA foreign_keys = ON;
      PRAGMA busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS};
    `);
  } catch (error) {
    throw new DatabaseStartError(`cannot open the SQLite database ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const dialect = new SqliteDialect({ database: opened.database });
  return wrap('sqlite', new Kysely<Schema>({ dialect: mapErrors(dialect, sqliteError) }), path);
}

async function openPostgres(url: string): Promise<Database> {
  const { default: pg } = await import('pg');
  const where = describePostgres(url);
  const pool = new pg.Pool({
    connectionString: url,
    max: POSTGRES_POOL_SIZE,
    connectionTimeoutMillis: POSTGRES_CONNECT_TIMEOUT_MS,
    // Counts and sums are 64-bit in PostgreSQL; as JavaScript numbers they are exact up to 2^53.
    types: {
      getTypeParser: (oid: number, format?: string) =>
        oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format as 'text'),
    },
  });
  // An idle connection the server drops emits an error on the pool; unheard, it would end the process. The
  // pool opens a new connection for the next query, so the daemon reconnects on its own.
  pool.on('error', () => {});
  try {
    await pool.query('select 1');
  } catch (error) {
    await pool.end().catch(() => {});
    throw new DatabaseStartError(`cannot connect to PostgreSQL ${where}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const dialect = new PostgresDialect({ pool });
  return wrap('postgres', new Kysely<Schema>({ dialect: mapErrors(dialect, postgresError) }), where);
}

const INT8_OID = 20;

/** Host, port and database of a PostgreSQL URL, never its user's password. */
export function describePostgres(url: string): string {
  try {
    const parsed = new URL(url);
    const database = decodeURIComponent(parsed.pathname.slice(1)) || '(default database)';
    return `database "${database}" on ${parsed.hostname || 'localhost'}:${parsed.port || '5432'}`;
  } catch {
    return 'at an unparsable URL (expected postgres://user:password@host:port/database)';
  }
}

function wrap(kind: DatabaseKind, db: Kysely<Schema>, description: string): Database {
  return {
    kind,
    db,
    description,
    async transaction(work) {
      for (let attempt = 1; ; attempt++) {
        try {
          return await db.transaction().execute(work);
        } catch (error) {
          if (!(error instanceof RetryableDatabaseError)) throw error;
          if (attempt === TRANSACTION_ATTEMPTS) throw unavailable(error);
          await sleep(Math.random() * 20 * 2 ** attempt);
        }
      }
    },
    close: () => db.destroy(),
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function unavailable(cause: unknown): CkbError {
  return new CkbError(
    'service_unavailable',
    'the database is unavailable for now; nothing was changed, try again in a moment',
    { cause },
  );
}

/** node:sqlite errors carry SQLite's extended result code; the primary code is its low byte. */
function sqliteError(error: unknown): unknown {
  const code = Number((error as { errcode?: number }).errcode) & 0xff;
  if (code === 13) return diskFull(error); // SQLITE_FULL
  if (code === 5 || code === 6) return new RetryableDatabaseError('database is busy', { cause: error }); // BUSY, LOCKED
  return error;
}

const POSTGRES_CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND']);

function postgresError(error: unknown): unknown {
  const code = String((error as { code?: string }).code ?? '');
  if (code === '53100') return diskFull(error); // disk_full
  if (code === '40001' || code === '40P01') return new RetryableDatabaseError(code, { cause: error }); // serialization, deadlock
  // Class 08 is a connection exception; 57P01 to 57P03, the server shutting down or starting.
  if (code.startsWith('08') || /^57P0[123]$/.test(code) || POSTGRES_CONNECTION_CODES.has(code))
    return unavailable(error);
  if (
    error instanceof Error &&
    /connection terminated|timeout exceeded when trying to connect/i.test(error.message)
  )
    return unavailable(error);
  return error;
}

/**
 * Every query of `dialect` with its errors mapped once, here: a full disk, a lost server or a busy lock become
 * typed errors the rest of the daemon (and the HTTP layer) understands, whichever query met them.
 */
function mapErrors(dialect: Dialect, map: (error: unknown) => unknown): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createDriver: () => mappingDriver(dialect.createDriver(), map),
  };
}

function mappingDriver(driver: Driver, map: (error: unknown) => unknown): Driver {
  const mapped = new WeakSet<DatabaseConnection>();
  const rethrow = (error: unknown): never => {
    throw map(error);
  };
  return {
    init: () => driver.init().catch(rethrow),
    async acquireConnection() {
      const connection = await driver.acquireConnection().catch(rethrow);
      if (!mapped.has(connection)) {
        // Patched on the instance, not wrapped in another object: drivers keep private state on their
        // connections and expect them back as they gave them.
        const execute = connection.executeQuery.bind(connection);
        // Async, so the SQLite driver's errors, thrown before it returns a promise, are caught too.
        connection.executeQuery = async <R>(query: Parameters<typeof execute>[0]) => {
          try {
            return await execute<R>(query);
          } catch (error) {
            return rethrow(error);
          }
        };
        mapped.add(connection);
      }
      return connection;
    },
    beginTransaction: (connection, settings) => driver.beginTransaction(connection, settings),
    commitTransaction: (connection) => driver.commitTransaction(connection),
    rollbackTransaction: (connection) => driver.rollbackTransaction(connection),
    releaseConnection: (connection) => driver.releaseConnection(connection),
    destroy: () => driver.destroy(),
  };
}
