import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { serve } from '../support/http-server.ts';
import { type CliResult, cliEnvironment, freePort, runCli } from './run.ts';

let daemon: TestDaemon;
let scratch: string;
let site: { origin: string; close(): Promise<void> };
let app: string;

function ckb(...args: string[]): Promise<CliResult> {
  return runCli(args, { env: cliEnvironment(daemon.home, daemon.url) });
}

beforeAll(async () => {
  daemon = await startTestDaemon();
  scratch = await mkdtemp(join(tmpdir(), 'ckb-cli-sources-'));
  site = await serve((_request, response) => {
    response.setHeader('content-type', 'text/html');
    response.end(
      '<html><head><title>Ferns</title></head><body><p>Ferns like shade and damp soil.</p></body></html>',
    );
  });
  app = (await daemon.call('POST', '/applications', { name: 'Sources' })).body.id;
});

afterAll(async () => {
  await site?.close();
  await daemon?.close();
  await rm(scratch, { recursive: true, force: true });
});

describe('source add --url', () => {
  it('adds a web page whether --url comes before or after --app', async () => {
    for (const args of [
      ['--app', app, '--url', `${site.origin}/ferns`],
      ['--url', `${site.origin}/ferns`, '--app', app],
    ]) {
      const added = await ckb('source', 'add', ...args, '--wait');
      expect(added.stderr).toMatch(/completed/);
      expect(added.code).toBe(0);
      const source = (await daemon.call('GET', `/sources/${added.stdout.trim()}`)).body;
      expect(source).toMatchObject({
        type: 'url',
        content: `${site.origin}/ferns`,
        embed_status: 'COMPLETED',
      });
    }
  });

  it('takes the daemon address from --daemon-url, wherever it is given', async () => {
    const env = cliEnvironment(daemon.home, `http://127.0.0.1:${await freePort()}`);
    const before = await runCli(['--daemon-url', daemon.url, '--json', 'app', 'get', app], { env });
    expect(JSON.parse(before.stdout).id).toBe(app);
    const after = await runCli(['app', 'get', app, '--json', '--daemon-url', daemon.url], { env });
    expect(JSON.parse(after.stdout).id).toBe(app);
  });
});
