import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

/** The built CLI, as `bin/ckb` runs it; `npm test` builds first. */
export const cliEntry = resolve(import.meta.dirname, '../../dist/src/cli/main.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function requireBuild(): void {
  if (!existsSync(cliEntry)) throw new Error(`${cliEntry} is missing: run \`npm run build\` first`);
}

/** The environment of a user of this test daemon; nothing inherited may point elsewhere. */
export function cliEnvironment(
  home: string,
  url: string,
  extra: Record<string, string> = {},
): NodeJS.ProcessEnv {
  const { CKB_API_KEY: _key, CKB_URL: _url, CKB_HOME: _home, ...inherited } = process.env;
  return { ...inherited, CKB_HOME: home, CKB_URL: url, CKB_NO_AUTOSTART: '1', NO_COLOR: '1', ...extra };
}

export function runCli(
  args: readonly string[],
  options: {
    env: NodeJS.ProcessEnv;
    nodeOptions?: readonly string[];
    timeoutMs?: number;
    entryPoint?: string;
    /** Written to the command's standard input, which then ends; without it, stdin is closed. */
    input?: string;
  },
): Promise<CliResult> {
  requireBuild();
  return new Promise((resolvePromise, reject) => {
    const entry = options.entryPoint ?? cliEntry;
    const child = spawn(process.execPath, [...(options.nodeOptions ?? []), entry, ...args], {
      env: options.env,
      stdio: 'pipe',
    });
    // Without input, stdin ends at once, as when nothing is piped in. A command that refuses its arguments may
    // exit before reading it: the pipe then breaks, which is no failure of the command's.
    child.stdin.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') reject(error);
    });
    child.stdin.end(options.input ?? '');
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
  });
}

/** A port nothing listens on (bound, read, released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolvePromise) => server.listen(0, '127.0.0.1', resolvePromise));
  const address = server.address();
  await new Promise((resolvePromise) => server.close(resolvePromise));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
