import { spawn } from 'node:child_process';
import { constants } from 'node:os';

/**
 * The environment a daemon process runs in. glibc gives each thread that allocates under contention a malloc
 * arena of its own; LanceDB's many threads made dozens, and their freed memory is rarely returned: the daemon's
 * resident memory grew by 200 MB over 40 searches and 200 turns, where two arenas held it at 40 MB (measured on
 * 2,000 sources; bench/storage.ts). The variable is read when the process starts, so it is set for the child.
 */
export function daemonEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (process.platform !== 'linux' || env['MALLOC_ARENA_MAX'] !== undefined) return env;
  return { ...env, MALLOC_ARENA_MAX: '2' };
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
