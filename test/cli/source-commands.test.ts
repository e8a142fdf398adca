import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { serve } from '../support/http-server.ts';
import { type CliResult, cliEntry, cliEnvironment, freePort, runCli } from './run.ts';

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
  site = await serve((request, response) => {
    if (request.url === '/slow') {
      setTimeout(() => {
        response.setHeader('content-type', 'text/html');
        response.end('<html><body><p>Slow ferns, at last.</p></body></html>');
      }, 2_500);
      return;
    }
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

describe('source add --file with uploaded files and folders', () => {
  it('accepts a file id printed by file upload, named after its file', async () => {
    const path = join(scratch, 'ferns.md');
    await writeFile(path, '# Ferns\n\nFerns reproduce by spores.\n');
    const fileId = (await ckb('file', 'upload', path)).stdout.trim();
    const added = await ckb('source', 'add', '--app', app, '--file', fileId, '--wait');
    expect(added.code).toBe(0);
    const source = (await daemon.call('GET', `/sources/${added.stdout.trim()}`)).body;
    expect(source).toMatchObject({
      type: 'file',
      content: fileId,
      name: 'ferns.md',
      embed_status: 'COMPLETED',
    });
  });

  it('mixes file ids with local files, and refuses an unknown id before adding anything', async () => {
    const path = join(scratch, 'moss.md');
    await writeFile(path, 'Moss has no roots.');
    const fileId = (await ckb('file', 'upload', path)).stdout.trim();
    const other = join(scratch, 'lichen.md');
    await writeFile(other, 'Lichen is a partnership.');
    const added = await ckb('--json', 'source', 'add', '--app', app, '--file', fileId, other);
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout).map((source: { name: string }) => source.name)).toEqual([
      'moss.md',
      'lichen.md',
    ]);

    const before = (await daemon.call('GET', '/sources')).body.length;
    const unknown = await ckb(
      'source',
      'add',
      '--app',
      app,
      '--file',
      other,
      'file_01ABCDEFGHJKMNPQRSTVWXYZ00',
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(
      'ckb: no uploaded file file_01ABCDEFGHJKMNPQRSTVWXYZ00: `ckb file list` shows the files uploaded with this key\n',
    );
    expect((await daemon.call('GET', '/sources')).body.length).toBe(before);
  });

  it('file upload of a folder says how to add a folder instead', async () => {
    const folder = join(scratch, 'folder-upload');
    await mkdir(folder, { recursive: true });
    const result = await ckb('file', 'upload', folder);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`ckb: ${folder} is a folder`);
    expect(result.stderr).toContain(`ckb source add --app APP_ID --file ${folder}`);
    expect(result.stderr).not.toMatch(/unsupported file type/);
  });

  it('counts and names the types of the files a folder held that were skipped', async () => {
    const folder = join(scratch, 'mixed');
    await mkdir(join(folder, 'sub'), { recursive: true });
    await writeFile(join(folder, 'a.md'), 'Alpha.');
    await writeFile(join(folder, 'b.png'), 'png');
    await writeFile(join(folder, 'sub/c.xlsx'), 'xlsx');
    await writeFile(join(folder, 'sub/d.PNG'), 'png');
    const added = await ckb('source', 'add', '--app', app, '--file', folder);
    expect(added.code).toBe(0);
    expect(added.stderr).toContain('skipped 3 files of unsupported types (.png, .xlsx); supported: .pdf');
    const quiet = await ckb('--quiet', 'source', 'add', '--app', app, '--file', folder);
    expect(quiet.stderr).toBe('');
  });
});

describe('source list and source wait', () => {
  it('lists by status, at most --limit, and refuses a status that does not exist', async () => {
    const own = (await daemon.call('POST', '/applications', { name: 'Listing' })).body.id;
    const failed = await ckb('source', 'add', '--app', own, '--url', 'http://127.0.0.1:9/nothing', '--wait');
    expect(failed.code).toBe(1);
    for (const text of ['one', 'two']) await ckb('source', 'add', '--app', own, '--text', text, '--wait');
    const list = async (...args: string[]) =>
      JSON.parse((await ckb('--json', 'source', 'list', '--app', own, ...args)).stdout).map(
        (source: { embed_status: string }) => source.embed_status,
      );
    expect(await list('--status', 'FAILED')).toEqual(['FAILED']);
    expect(await list('--status', 'completed')).toEqual(['COMPLETED', 'COMPLETED']);
    expect(await list('--limit', '1')).toHaveLength(1);
    const wrong = await ckb('source', 'list', '--status', 'DONE');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/^ckb: .*use one of PENDING, PROCESSING, COMPLETED, FAILED/);
    expect((await ckb('source', 'list', '--limit', '1e3')).code).toBe(2);
  });

  it('Ctrl-C during --wait says ingestion goes on and how to follow it again; source wait does', async () => {
    const child = spawn(
      process.execPath,
      [cliEntry, 'source', 'add', '--app', app, '--url', `${site.origin}/slow`, '--wait'],
      { env: cliEnvironment(daemon.home, daemon.url), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    while (!stderr.includes('waiting for ingestion')) await new Promise((resolve) => setTimeout(resolve, 20));
    child.kill('SIGINT');
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(130);
    const id = stdout.trim();
    expect(stderr).toContain(
      `stopped waiting; ingestion goes on in the daemon: follow it again with \`ckb source wait ${id}\``,
    );
    const resumed = await ckb('source', 'wait', id);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toMatch(/completed, 1 page, 1 chunk/);
    expect((await daemon.call('GET', `/sources/${id}`)).body.embed_status).toBe('COMPLETED');
  });

  it("source wait --app follows all of an application's sources and exits 1 naming the failed ones", async () => {
    const own = (await daemon.call('POST', '/applications', { name: 'Waiting' })).body.id;
    const empty = await ckb('source', 'wait', '--app', own);
    expect(empty.code).toBe(0);
    expect(empty.stderr).toContain('has no sources');
    await daemon.call('POST', '/sources', {
      application_id: own,
      name: 'ok',
      type: 'text',
      content: 'Fine.',
    });
    const good = await ckb('source', 'wait', '--app', own);
    expect(good.code).toBe(0);
    expect(good.stderr).toMatch(/ok: completed/);
    await daemon.call('POST', '/sources', {
      application_id: own,
      name: 'gone',
      type: 'url',
      content: 'http://127.0.0.1:9/gone',
    });
    const bad = await ckb('source', 'wait', '--app', own);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/1\/2 completed, 1 failed/);
    expect(bad.stderr).toMatch(/ckb: 1 of 2 sources failed:\n {2}gone: /);
    expect((await ckb('source', 'wait')).code).toBe(2);
  });
});

describe('source add --wait in a terminal', () => {
  it('shows progress and totals instead of a screenful of ids', async () => {
    const folder = join(scratch, 'many');
    await mkdir(folder, { recursive: true });
    for (const name of ['a', 'b', 'c']) await writeFile(join(folder, `${name}.md`), `Note ${name}.`);
    const steps = [['expect', '3/3 completed']];
    const driver = resolve(import.meta.dirname, 'drive-pty.py');
    const screen = await new Promise<{ code: number | null; text: string }>((done, reject) => {
      const child = spawn(
        'python3',
        [
          driver,
          JSON.stringify(steps),
          process.execPath,
          cliEntry,
          'source',
          'add',
          '--app',
          app,
          '--file',
          folder,
          '--wait',
        ],
        { env: { ...cliEnvironment(daemon.home, daemon.url), TERM: 'xterm', COLUMNS: '100', LINES: '40' } },
      );
      let text = '';
      child.stdout.on('data', (chunk) => {
        text += chunk;
      });
      child.on('error', reject);
      child.on('close', (code) => done({ code, text }));
    });
    expect(screen.code).toBe(0);
    expect(screen.text).not.toMatch(/src_[0-9A-Z]{26}/);
    expect(screen.text).toContain(`ckb source list --app ${app}`);
  });
});
