import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon } from '../support/daemon.ts';
import { newHome } from '../support/home.ts';
import { cliEnvironment, freePort, runCli } from './run.ts';

let home: string;
let url: string;

function ckb(...args: string[]) {
  const { CKB_NO_AUTOSTART: _off, ...env } = cliEnvironment(home, url);
  return runCli(args, { env });
}

beforeAll(async () => {
  home = await newHome();
  url = `http://127.0.0.1:${await freePort()}`;
});

afterAll(async () => {
  const state = join(home, 'daemon.json');
  if (existsSync(state)) process.kill(JSON.parse(await readFile(state, 'utf8')).pid, 'SIGTERM');
  await rm(home, { recursive: true, force: true });
});

describe('a fresh home whose port another daemon holds', () => {
  it('names that daemon instead of asking for a key', async () => {
    const other = await startTestDaemon();
    const fresh = await mkdtemp(join(tmpdir(), 'ckb-fresh-'));
    try {
      const { CKB_NO_AUTOSTART: _off, ...env } = cliEnvironment(fresh, other.url);
      const result = await runCli(['app', 'list'], { env });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        new RegExp(
          `^ckb: the ckb daemon answering at ${other.url} \\(version [\\d.]+\\) was started from another home: ${fresh} has no API key`,
        ),
      );
      expect(result.stderr).toContain('--api-key');
    } finally {
      await other.close();
      await rm(fresh, { recursive: true, force: true });
    }
  });
});

describe('autostart and the background daemon', () => {
  it('starts the local daemon when nothing answers, then manages it', async () => {
    const first = await ckb('--json', 'app', 'list');
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual([]);
    expect(first.stderr).toContain(`no daemon at ${url}; starting one in the background`);
    expect(first.stderr).toMatch(/daemon started \(pid \d+\)/);

    // The new daemon wrote the admin key the CLI just used.
    const config = JSON.parse(await readFile(join(home, 'config.json'), 'utf8'));
    expect(config.api_key).toMatch(/^ckb_/);

    const second = await ckb('app', 'create', '--name', 'again');
    expect(second.stderr).toBe('');
    expect(second.stdout).toMatch(/^app_/);

    const status = await ckb('--json', 'daemon', 'status');
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ running: true, url });

    const started = await ckb('daemon', 'start');
    expect(started.stdout.trim()).toBe(url);
    expect(started.stderr).toContain('already running');

    const logs = await ckb('daemon', 'logs');
    expect(logs.code).toBe(0);
    expect(logs.stdout).toContain('daemon started');
    // Without a key, the start-up line says both model names answer offline.
    expect(logs.stdout).toMatch(/"lm-3\.5-turbo":"offline \(extractive\)","lm-4":"offline \(extractive\)"/);

    const { pid } = JSON.parse(status.stdout);
    const stopped = await ckb('daemon', 'stop', '--json');
    expect(stopped.code).toBe(0);
    expect(JSON.parse(stopped.stdout)).toEqual({ stopped: true, pid });
    expect(existsSync(join(home, 'daemon.json'))).toBe(false);
    expect(JSON.parse((await ckb('--json', 'daemon', 'stop')).stdout)).toEqual({ stopped: false });
    const plain = await ckb('daemon', 'stop');
    expect(plain.stdout).toBe('');
    expect(plain.stderr).toContain('no daemon is running');

    const after = await ckb('daemon', 'status');
    expect(after.code).toBe(3);
    expect(after.stderr).toContain('the daemon is not running');
  });
});
