import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { type CliResult, cliEntry, cliEnvironment, runCli } from './run.ts';

let daemon: TestDaemon;
let app: string;

function ckb(...args: string[]): Promise<CliResult> {
  return runCli(args, { env: cliEnvironment(daemon.home, daemon.url) });
}

beforeAll(async () => {
  daemon = await startTestDaemon();
  app = (await daemon.call('POST', '/applications', { name: 'Hygiene' })).body.id;
});

afterAll(() => daemon?.close());

/** Runs the CLI with its stdout closed before it writes anything, as `ckb … | head` leaves it. */
function withClosedStdout(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliEntry, ...args], {
      env: cliEnvironment(daemon.home, daemon.url),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('a closed pipe', () => {
  it('ends the command quietly, without a stack trace', async () => {
    for (const args of [['--json', 'app', 'list'], ['app', 'get', app], ['--help']]) {
      const result = await withClosedStdout(args);
      expect(result.stderr, args.join(' ')).toBe('');
      expect(result.code, args.join(' ')).toBe(0);
    }
  });
});

describe('errors', () => {
  it('all begin with the same prefix: usage errors, commander’s own, the daemon’s and the CLI’s', async () => {
    const results = await Promise.all([
      ckb('app', 'list', '--bogus'),
      ckb('app', 'create'),
      ckb('source', 'add', '--app', app),
      ckb('app', 'get', 'app_missing'),
      ckb('file', 'upload', '/nonexistent/file.txt'),
    ]);
    for (const result of results) {
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(/^ckb: \S/);
      expect(result.stderr).not.toMatch(/^error:/m);
    }
  });
});

describe('progress written to a file', () => {
  it('has no colour codes, even when the environment claims a colour terminal', async () => {
    const {
      NO_COLOR: _none,
      FORCE_COLOR: _force,
      ...env
    } = cliEnvironment(daemon.home, daemon.url, {
      TERM: 'xterm-256color',
      COLORTERM: 'truecolor',
    });
    const added = await runCli(['source', 'add', '--app', app, '--text', 'Moss grows in shade.', '--wait'], {
      env,
    });
    expect(added.code).toBe(0);
    expect(added.stderr).toMatch(/completed, 1 page, 1 chunk\n/);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: escape codes are what must be absent
    expect(added.stderr).not.toMatch(/\u001b\[/);
  });
});
