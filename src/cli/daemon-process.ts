import { spawn } from 'node:child_process';
import { mkdirSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { createClient, DaemonUnreachableError, RequestAbortedError } from '../client/index.ts';
import { daemonEnvironment } from './daemon-environment.ts';
import { ExitError } from './exit.ts';

const START_TIMEOUT_MS = 30_000;
const POLL_MS = 100;

export const DaemonState = z.looseObject({ pid: z.number().int(), url: z.string(), started_at: z.string() });
export type DaemonState = z.infer<typeof DaemonState>;

export function daemonStatePath(home: string): string {
  return join(home, 'daemon.json');
}

export function daemonLogPath(home: string): string {
  return join(home, 'logs', 'daemon.log');
}

/** Where the background daemon's own stdout and stderr go, so a crash before it can log is still explained. */
export function daemonOutputPath(home: string): string {
  return join(home, 'logs', 'daemon.out');
}

export function readDaemonState(home: string): DaemonState | undefined {
  try {
    const parsed = DaemonState.safeParse(JSON.parse(readFileSync(daemonStatePath(home), 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function isLoopback(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  return protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]', '::1'].includes(hostname);
}

export async function isAnswering(url: string): Promise<boolean> {
  try {
    await createClient({ url }).health({ signal: AbortSignal.timeout(2_000) });
    return true;
  } catch (error) {
    // A daemon too busy to answer /health within the timeout counts as absent, like a refused connection.
    if (error instanceof DaemonUnreachableError || error instanceof RequestAbortedError) return false;
    throw error;
  }
}

function cliEntry(): string {
  return fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? './main.ts' : './main.js', import.meta.url));
}

function delay(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}

/** Runs `ckb serve` detached for the URL's host and port, then waits until /health answers. */
export async function startDaemon(home: string, url: string): Promise<number> {
  const { hostname, port } = new URL(url);
  mkdirSync(join(home, 'logs'), { recursive: true });
  const output = openSync(daemonOutputPath(home), 'a');
  const child = spawn(
    process.execPath,
    [cliEntry(), 'serve', '--home', home, '--host', hostname.replace(/^\[|\]$/g, ''), '--port', port || '80'],
    { detached: true, stdio: ['ignore', output, output], env: daemonEnvironment(process.env) },
  );
  let exitCode: number | null | undefined;
  child.once('exit', (code) => {
    exitCode = code;
  });
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (await isAnswering(url)) {
      child.unref();
      return child.pid ?? 0;
    }
    if (exitCode !== undefined) {
      throw new ExitError(
        `the daemon exited with code ${exitCode} while starting; see ${daemonOutputPath(home)}`,
      );
    }
    await delay(POLL_MS);
  }
  child.unref();
  throw new ExitError(
    `the daemon did not answer at ${url} within ${START_TIMEOUT_MS / 1000} s; see ${daemonOutputPath(home)}`,
  );
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM lets the daemon shut down gracefully (it removes daemon.json); returns undefined when none was running. */
export async function stopDaemon(home: string): Promise<{ pid: number } | undefined> {
  const state = readDaemonState(home);
  if (state === undefined || !isAlive(state.pid)) return undefined;
  process.kill(state.pid, 'SIGTERM');
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (!isAlive(state.pid)) return { pid: state.pid };
    await delay(POLL_MS);
  }
  throw new ExitError(`the daemon (pid ${state.pid}) did not stop within 15 s`);
}
