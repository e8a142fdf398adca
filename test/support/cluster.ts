import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { daemonEnvironment } from '../../src/cli/daemon-environment.ts';

/** The CLI's source, which Node runs as it is: the processes are the real commands, with no build needed. */
const cliEntry = resolve(import.meta.dirname, '../../src/cli/main.ts');

/** What every process of one deployment shares: the PostgreSQL database and a directory for chunks and files. */
export interface SharedStorage {
  databaseUrl: string;
  /** Holds `db/` (LanceDB) and `files/` (uploads, beside it by default). */
  directory: string;
  /** Settings every process's config.json holds (limits, for a short lease). */
  config: Record<string, unknown>;
}

export type ProcessKind = 'serve' | 'api' | 'worker';

/** One ckb process in a child process, with a home of its own. */
export interface CkbProcess {
  kind: ProcessKind;
  home: string;
  /** Where its API listens; empty for a worker. */
  url: string;
  pid: number;
  child: ChildProcess;
  /** The exit code, once it has exited. */
  exited: Promise<number | null>;
  kill(signal: NodeJS.Signals): Promise<void>;
  /** Its structured log, one object a line. */
  log(): Promise<Record<string, unknown>[]>;
}

export async function sharedStorage(
  databaseUrl: string,
  config: Record<string, unknown> = {},
): Promise<SharedStorage> {
  const directory = await mkdtemp(join(tmpdir(), 'ckb-shared-'));
  return { databaseUrl, directory, config };
}

const COMMANDS: Record<ProcessKind, string[]> = {
  serve: ['serve', '--port', '0'],
  api: ['serve', '--port', '0', '--no-ingest'],
  worker: ['worker'],
};

/**
 * Starts `ckb serve`, `ckb serve --no-ingest` or `ckb worker` on the shared storage (given by environment
 * variables, as an operator would) with a new home, and waits until it says it is ready.
 */
export async function startCkbProcess(
  kind: ProcessKind,
  shared: SharedStorage,
  /** `entry`: the CLI to run, when not its source (benchmarks run the built one, as `bin/ckb` does). */
  options: { args?: string[]; port?: number; entry?: string } = {},
): Promise<CkbProcess> {
  const home = await mkdtemp(join(tmpdir(), `ckb-${kind}-`));
  await writeFile(join(home, 'config.json'), JSON.stringify(shared.config), { mode: 0o600 });
  const { CKB_API_KEY: _key, CKB_URL: _url, ...inherited } = process.env;
  const args = [...COMMANDS[kind], ...(options.args ?? [])];
  if (options.port !== undefined) args.splice(args.indexOf('0'), 1, String(options.port));
  const child = spawn(process.execPath, [options.entry ?? cliEntry, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    // Set already, so the command does not relaunch itself to set it: the process signalled is the daemon.
    env: daemonEnvironment({
      ...inherited,
      CKB_HOME: home,
      CKB_DATABASE_URL: shared.databaseUrl,
      CKB_LANCEDB_URI: join(shared.directory, 'db'),
      CKB_NO_AUTOSTART: '1',
    }),
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const [line] = (await Promise.race([
    once(createInterface({ input: child.stdout! }), 'line'),
    exited.then((code) => {
      throw new Error(`ckb ${args.join(' ')} exited with ${code} before it was ready: ${stderr}`);
    }),
  ])) as [string];
  return {
    kind,
    home,
    url: kind === 'worker' ? '' : line,
    pid: child.pid!,
    child,
    exited,
    async kill(signal) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      await exited;
    },
    async log() {
      const text = await readFile(join(home, 'logs', 'daemon.log'), 'utf8').catch(() => '');
      return text
        .split('\n')
        .filter(Boolean)
        .map((entry) => JSON.parse(entry) as Record<string, unknown>);
    },
  };
}

/** The admin key the first process wrote to its config.json. */
export async function adminKeyOf(process: CkbProcess): Promise<string> {
  const config = JSON.parse(await readFile(join(process.home, 'config.json'), 'utf8')) as {
    api_key?: string;
  };
  if (!config.api_key) throw new Error(`${process.home}/config.json holds no api_key`);
  return config.api_key;
}

/** Calls the API of `url` with `key`; the body is parsed JSON when it is JSON. */
export async function call(
  url: string,
  key: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: response.status, body: parsed };
}

/** Stops every process still running (SIGTERM: a graceful stop) and removes their homes and the shared files. */
export async function stopAll(processes: CkbProcess[], shared?: SharedStorage): Promise<void> {
  await Promise.all(processes.map((running) => running.kill('SIGTERM')));
  await Promise.all(processes.map((running) => rm(running.home, { recursive: true, force: true })));
  if (shared) await rm(shared.directory, { recursive: true, force: true });
}

/** The home a job's lease owner names (`host:home:pid:random`), to tell which process holds it. */
export function leaseHome(owner: string): string {
  return owner.split(':')[1] ?? '';
}
