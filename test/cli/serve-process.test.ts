import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEntry } from './run.ts';

let home: string;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'ckb-serve-'));
});

afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function gone(pid: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (!alive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !alive(pid);
}

describe.runIf(process.platform === 'linux')('ckb serve, relaunched with the daemon’s environment', () => {
  it('runs the daemon with its malloc settings, and the daemon dies with the command even by SIGKILL', async () => {
    const {
      MALLOC_ARENA_MAX: _arenas,
      MALLOC_MMAP_THRESHOLD_: _mapped,
      MALLOC_TRIM_THRESHOLD_: _trimmed,
      CKB_DATABASE_URL: _database,
      ...env
    } = process.env;
    const command = spawn(process.execPath, [cliEntry, 'serve', '--port', '0'], {
      env: { ...env, CKB_HOME: home, CKB_NO_AUTOSTART: '1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let pid: number | undefined;
    try {
      const [url] = (await once(createInterface({ input: command.stdout! }), 'line')) as [string];
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      ({ pid } = JSON.parse(await readFile(join(home, 'daemon.json'), 'utf8')) as { pid: number });
      expect(pid).not.toBe(command.pid);
      const environment = (await readFile(`/proc/${pid}/environ`, 'utf8')).split('\0');
      expect(environment).toEqual(
        expect.arrayContaining([
          'MALLOC_ARENA_MAX=2',
          'MALLOC_MMAP_THRESHOLD_=131072',
          'MALLOC_TRIM_THRESHOLD_=131072',
        ]),
      );

      command.kill('SIGKILL');
      expect(await gone(pid, 5_000)).toBe(true);
    } finally {
      command.kill('SIGKILL');
      if (pid !== undefined && alive(pid)) process.kill(pid, 'SIGKILL');
    }
  });
});
