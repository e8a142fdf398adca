import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

export interface DaemonProcess {
  url: string;
  apiKey: string;
  child: ChildProcess;
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  kill(signal: NodeJS.Signals): Promise<void>;
}

const runner = resolve(import.meta.dirname, 'run-daemon.ts');

/** A daemon in a child process on a free port, for crash tests. */
export async function spawnDaemon(home: string, options: { prefix?: string[] } = {}): Promise<DaemonProcess> {
  // `prefix` runs the daemon under another command (in a namespace of its own, say).
  const [command, ...args] = [...(options.prefix ?? []), process.execPath, runner, home];
  const child = spawn(command!, args, {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, CKB_HOME: home },
  });
  const lines = createInterface({ input: child.stdout! });
  const [url] = (await Promise.race([
    once(lines, 'line'),
    once(child, 'exit').then(([code]) => {
      throw new Error(`daemon exited with ${code} before listening`);
    }),
  ])) as [string];
  const config = JSON.parse(await readFile(join(home, 'config.json'), 'utf8')) as { api_key: string };
  return {
    url,
    apiKey: config.api_key,
    child,
    async call(method, path, body) {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${config.api_key}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: response.status, body: await response.json() };
    },
    async kill(signal) {
      const exited = once(child, 'exit');
      child.kill(signal);
      await exited;
    },
  };
}
