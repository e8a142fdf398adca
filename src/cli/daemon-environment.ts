import { spawn } from 'node:child_process';
import { constants } from 'node:os';

/**
 * glibc's allocator settings for a daemon, read when a process starts (so they are set for a child).
 * - Two arenas: glibc gives each thread that allocates under contention an arena of its own; LanceDB's many
 *   threads made dozens, and their freed memory is rarely returned: the daemon's resident memory grew by 200 MB over
 *   40 searches and 200 turns, where two arenas held it at 40 MB (measured on 2,000 sources; bench/storage.ts).
 * - Blocks of 128 KB and more mapped on their own, and a heap's free top returned past 128 KB: glibc raises its
 *   own threshold towards 32 MB as large blocks are freed, after which LanceDB's buffers of a bulk ingestion
 *   (vectors, index pages) stayed in the heap once used. A burst of 20,000 sources peaked at 1,129 MiB (median of
 *   three runs) and 965 with them; it ingested 3% slower and built its indexes 10% slower.
 */
const MALLOC_SETTINGS = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
  MALLOC_TRIM_THRESHOLD_: '131072',
} as const;

/** The environment a daemon process runs in: `env` with the allocator settings it does not set itself. */
export function daemonEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (process.platform !== 'linux') return env;
  const missing = Object.entries(MALLOC_SETTINGS).filter(([name]) => env[name] === undefined);
  return missing.length === 0 ? env : { ...env, ...Object.fromEntries(missing) };
}

/**
 * Runs this very command again in a child process with the daemon's environment, when this process was not
 * started with it; resolves with the child's exit code then, or with undefined when this process may go on.
 * The two are one daemon to whoever started it: signals pass to the child, and a child whose parent is gone
 * (killed with SIGKILL, which cannot be passed on) kills itself rather than run on unseen.
 */
export async function relaunchWithDaemonEnvironment(): Promise<number | undefined> {
  const env = daemonEnvironment(process.env);
  if (env === process.env) {
    dieWithParent();
    return undefined;
  }
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env,
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.once('exit', (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
  );
  return code ?? 128 + (signal ? constants.signals[signal] : 0);
}

/** In a relaunched child: its IPC channel to the parent closes when the parent exits, however it exits. */
function dieWithParent(): void {
  if (!process.channel) return;
  process.channel.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGKILL'));
}
