import type { Client } from 'pg';

/**
 * What the processes sharing one database agree on through it. On PostgreSQL: advisory locks and LISTEN/NOTIFY
 * on a connection of its own, held for the process's life (a process that dies closes it, and PostgreSQL lets go
 * of its locks). On the embedded SQLite, the process is alone by construction (the home's lock).
 */
export interface Coordination {
  /**
   * Runs start-up work (schema and index creation, an embedder switch) one process at a time; `alone` says that
   * no other process is using the database, so work that would pull data from under one may run.
   */
  startUp<T>(work: (alone: boolean) => Promise<T>): Promise<T>;
  /** Whether this process leads index upkeep, taking the lead when no process holds it. */
  leads(): Promise<boolean>;
  /** Tells the other processes that jobs were queued. */
  announceJobs(): void;
  /** Calls `listener` when another process queued jobs. */
  onJobs(listener: () => void): void;
  close(): Promise<void>;
}

/** The embedded database's one process: alone, leading, with nobody to tell. */
export function soleCoordination(): Coordination {
  return {
    startUp: (work) => work(true),
    leads: async () => true,
    announceJobs() {},
    onJobs() {},
    async close() {},
  };
}

/**
 * Advisory lock keys ("ckb" and a number), scoped by PostgreSQL to the database: every running process holds
 * PROCESSES shared; start-up holds STARTUP; the leader of index upkeep holds MAINTENANCE.
 */
const PROCESSES = 0x636b6201;
const STARTUP = 0x636b6202;
const MAINTENANCE = 0x636b6203;
const JOBS_CHANNEL = 'ckb_jobs';
const CONNECT_TIMEOUT_MS = 5_000;
const RECONNECT_MS = [1_000, 2_000, 5_000, 10_000];

export async function openPostgresCoordination(
  url: string,
  onError: (what: string, error: unknown) => void,
): Promise<Coordination> {
  const { default: pg } = await import('pg');
  const listeners: (() => void)[] = [];
  let client: Client | undefined;
  let started = false;
  let leading = false;
  let closed = false;
  let reconnects = 0;
  let reconnectTimer: NodeJS.Timeout | undefined;

  async function connect(): Promise<Client> {
    const connection = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      application_name: 'ckb',
    });
    // A lost connection emits `error` then `end`; `end` is where it is handled.
    connection.on('error', () => {});
    connection.on('end', () => lost(connection));
    connection.on('notification', (message) => {
      if (message.channel === JOBS_CHANNEL) for (const listener of listeners) listener();
    });
    await connection.connect();
    await connection.query(`listen ${JOBS_CHANNEL}`);
    // Back after a lost connection: running again, as far as other processes can tell.
    if (started) await connection.query('select pg_advisory_lock_shared($1)', [PROCESSES]);
    return connection;
  }

  function lost(connection: Client): void {
    if (client !== connection) return;
    client = undefined;
    leading = false;
    if (closed) return;
    onError('the coordination connection to PostgreSQL', new Error('connection lost; reconnecting'));
    scheduleReconnect();
  }

  function scheduleReconnect(): void {
    const wait = RECONNECT_MS[Math.min(reconnects, RECONNECT_MS.length - 1)]!;
    reconnects += 1;
    reconnectTimer = setTimeout(() => {
      connect()
        .then((connection) => {
          if (closed) return void connection.end();
          client = connection;
          reconnects = 0;
        })
        .catch(() => scheduleReconnect());
    }, wait);
    reconnectTimer.unref();
  }

  // One query at a time on the connection: pg queues a query sent while another runs, but deprecates it (pg 9
  // refuses it), and announcements are sent without waiting for them.
  let previous: Promise<unknown> = Promise.resolve();
  function inTurn<T>(query: (connection: Client) => Promise<T>): Promise<T> {
    const result = previous.then(() => {
      if (!client) throw new Error('the coordination connection to PostgreSQL is lost');
      return query(client);
    });
    previous = result.catch(() => {});
    return result;
  }

  async function lock(function_: string, key: number): Promise<boolean> {
    const result = await inTurn((connection) =>
      connection.query<{ held: boolean | null }>(`select ${function_}($1) as held`, [key]),
    );
    return result.rows[0]?.held !== false;
  }

  // Jobs queued while an announcement waits its turn are told by it: requests adding sources one at a time, many
  // at once, send a few NOTIFYs rather than one each. It counts as sent once it starts, so jobs queued after it
  // get one of their own.
  let announcementWaiting = false;

  client = await connect();
  return {
    async startUp(work) {
      await lock('pg_advisory_lock', STARTUP);
      try {
        // The exclusive lock is free only while no other process holds it shared, that is, runs.
        const alone = await lock('pg_try_advisory_lock', PROCESSES);
        const result = await work(alone);
        await lock('pg_advisory_lock_shared', PROCESSES);
        if (alone) await lock('pg_advisory_unlock', PROCESSES);
        started = true;
        return result;
      } finally {
        await lock('pg_advisory_unlock', STARTUP).catch(() => {});
      }
    },

    async leads() {
      if (leading || !client) return leading;
      try {
        leading = await lock('pg_try_advisory_lock', MAINTENANCE);
      } catch {
        leading = false;
      }
      return leading;
    },

    announceJobs() {
      if (!client || announcementWaiting) return;
      announcementWaiting = true;
      inTurn((connection) => {
        announcementWaiting = false;
        return connection.query(`notify ${JOBS_CHANNEL}`);
      }).catch((error: unknown) => {
        announcementWaiting = false;
        onError('announcing jobs', error);
      });
    },

    onJobs(listener) {
      listeners.push(listener);
    },

    async close() {
      closed = true;
      clearTimeout(reconnectTimer);
      await client?.end().catch(() => {});
      client = undefined;
    },
  };
}
