import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A throwaway PostgreSQL server for one test run: its own data directory, on a free loopback port. */
export interface PostgresCluster {
  /** A URL of the server's `postgres` database, as its superuser (trust authentication on loopback). */
  adminUrl: string;
  /** Stops the server as an operator would (`pg_ctl stop -m fast`), keeping its data, until `resume`. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
}

/** Debian puts each major version's programs in /usr/lib/postgresql/<version>/bin, off the PATH. */
export function findPostgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
        .sort((left, right) => Number(right) - Number(left))
    : [];
  if (versions[0]) return join(root, versions[0], 'bin');
  for (const directory of (process.env['PATH'] ?? '').split(':')) {
    if (existsSync(join(directory, 'initdb')) && existsSync(join(directory, 'pg_ctl'))) return directory;
  }
  return undefined;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** PostgreSQL refuses to run as root; as root, its programs run as the `postgres` user Debian's package adds. */
function asServerUser(program: string, args: string[]): [string, string[]] {
  if (process.getuid?.() !== 0) return [program, args];
  return ['runuser', ['-u', 'postgres', '--', program, ...args]];
}

export async function startPostgresCluster(): Promise<PostgresCluster> {
  const bin = findPostgresBin();
  if (!bin) {
    throw new Error(
      "PostgreSQL's initdb and pg_ctl were not found (install Debian's postgresql package: apt-get install postgresql)",
    );
  }
  const directory = await mkdtemp(join(tmpdir(), 'ckb-postgres-'));
  // The server user must own its directory; the socket goes there too, not to /var/run/postgresql.
  await chmod(directory, 0o777);
  const data = join(directory, 'data');
  const port = await freePort();
  const command = (program: string, args: string[]) => {
    const [file, argv] = asServerUser(join(bin, program), args);
    return run(file, argv, { cwd: directory });
  };
  await command('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']);
  const start = () =>
    command('pg_ctl', [
      '-D',
      data,
      '-l',
      join(directory, 'server.log'),
      '-w',
      '-o',
      `-p ${port} -k ${directory} -c listen_addresses=127.0.0.1 -c max_connections=300`,
      'start',
    ]);
  await start();
  return {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async pause() {
      await command('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    },
    async resume() {
      await start();
    },
    async stop() {
      await command('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => {});
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** A new, empty database on the cluster; returns its URL. */
export async function createDatabase(adminUrl: string): Promise<string> {
  const { default: pg } = await import('pg');
  const name = `ckb_test_${Math.random().toString(36).slice(2, 12)}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropDatabase(adminUrl: string, databaseUrl: string): Promise<void> {
  const { default: pg } = await import('pg');
  const name = new URL(databaseUrl).pathname.slice(1);
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`drop database if exists ${name} with (force)`);
  } finally {
    await client.end();
  }
}
