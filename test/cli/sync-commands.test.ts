import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon, type TestDaemon, waitForSource } from '../support/daemon.ts';
import { serve } from '../support/http-server.ts';
import { type CliResult, cliEntry, cliEnvironment, runCli } from './run.ts';

let daemon: TestDaemon;
let scratch: string;

function ckb(...args: string[]): Promise<CliResult> {
  return runCli(args, { env: cliEnvironment(daemon.home, daemon.url) });
}

async function folderWith(files: Record<string, string>): Promise<string> {
  const folder = await mkdtemp(join(scratch, 'notes-'));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(folder, path)), { recursive: true });
    await writeFile(join(folder, path), text);
  }
  return folder;
}

async function newApplication(): Promise<string> {
  return (await daemon.call('POST', '/applications', { name: 'Sync' })).body.id;
}

async function sources(app: string): Promise<any[]> {
  return (await daemon.call('GET', `/applications/${app}/sources`)).body;
}

async function fileCount(): Promise<number> {
  return (await daemon.call('GET', '/files')).body.length;
}

const names = (list: { name: string }[]) => list.map((item) => item.name).sort();

beforeAll(async () => {
  daemon = await startTestDaemon();
  scratch = await mkdtemp(join(tmpdir(), 'ckb-cli-sync-'));
});

afterAll(async () => {
  await daemon?.close();
  await rm(scratch, { recursive: true, force: true });
});

describe('ckb sync', () => {
  it('adds, then leaves unchanged files alone, replaces changed ones in place and removes gone ones with --delete', async () => {
    const folder = await folderWith({
      'boats.md': '# Boats\n\nA ketch has two masts.\n',
      'knots/bowline.md': '# Bowline\n\nThe rabbit comes out of the hole.\n',
      'knots/hitch.txt': 'A clove hitch holds a line to a post.',
    });
    const top = basename(folder);
    const app = await newApplication();

    const first = await ckb('--json', 'sync', '--app', app, folder, '--wait');
    expect(first.code, first.stderr).toBe(0);
    const added = JSON.parse(first.stdout);
    expect(names(added.added)).toEqual([
      `${top}/boats.md`,
      `${top}/knots/bowline.md`,
      `${top}/knots/hitch.txt`,
    ]);
    expect(added.added.every((source: any) => source.embed_status === 'COMPLETED')).toBe(true);
    expect([added.updated, added.unchanged, added.removed]).toEqual([[], [], []]);
    const files = await fileCount();

    const again = await ckb('sync', '--app', app, folder);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout.trim()).toBe('added 0, updated 0, unchanged 3, removed 0');
    expect(await fileCount()).toBe(files);

    const before = new Map((await sources(app)).map((source) => [source.name, source.id]));
    await writeFile(
      join(folder, 'boats.md'),
      '# Boats\n\nA yawl has two masts, the second aft of the rudder post.\n',
    );
    await unlink(join(folder, 'knots/hitch.txt'));
    const changed = await ckb('--json', 'sync', '--app', app, folder, '--wait');
    expect(changed.code, changed.stderr).toBe(0);
    const result = JSON.parse(changed.stdout);
    expect(result.updated.map((source: any) => [source.name, source.id])).toEqual([
      [`${top}/boats.md`, before.get(`${top}/boats.md`)],
    ]);
    expect(result.updated[0].embed_status).toBe('COMPLETED');
    expect(result.removed).toEqual([]);
    expect(changed.stderr).toMatch(/1 source has no file here any more, and stays \(pass --delete/);
    // The replaced upload was deleted: as many files as before.
    expect(await fileCount()).toBe(files);
    const hits = (await daemon.call('POST', `/applications/${app}/search`, { query: 'yawl masts' })).body;
    expect(hits[0]).toMatchObject({ source: `${top}/boats.md`, source_id: before.get(`${top}/boats.md`) });

    const dry = await ckb('sync', '--app', app, folder, '--delete', '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`would remove ${top}/knots/hitch.txt`);
    expect(dry.stdout).toContain('dry run: added 0, updated 0, unchanged 2, removed 1; nothing was changed');
    expect(names(await sources(app))).toHaveLength(3);

    const removed = await ckb('sync', '--app', app, folder, '--delete');
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toContain(`removed  ${top}/knots/hitch.txt`);
    expect(names(await sources(app))).toEqual([`${top}/boats.md`, `${top}/knots/bowline.md`]);
    expect(await fileCount()).toBe(files - 1);
  });

  it('--delete leaves sources outside the paths alone, and removes older sources of the same name', async () => {
    const folder = await folderWith({ 'tide.md': '# Tide\n\nHigh water twice a day.\n' });
    const top = basename(folder);
    const app = await newApplication();
    await daemon.call('POST', '/sources', {
      application_id: app,
      type: 'text',
      name: 'loose note',
      content: 'x',
    });
    // The same file added twice, as before sync existed: two sources with one name.
    for (let copy = 0; copy < 2; copy++)
      expect((await ckb('source', 'add', '--app', app, '--file', folder)).code).toBe(0);
    const result = await ckb('--json', 'sync', '--app', app, folder, '--delete');
    expect(result.code, result.stderr).toBe(0);
    const { unchanged, removed } = JSON.parse(result.stdout);
    expect(names(unchanged)).toEqual([`${top}/tide.md`]);
    expect(names(removed)).toEqual([`${top}/tide.md`]);
    expect(removed[0].id).not.toBe(unchanged[0].id);
    expect(names(await sources(app))).toEqual(['loose note', `${top}/tide.md`]);
  });

  it('refuses URLs and missing paths as a usage error, before any request', async () => {
    const app = await newApplication();
    expect((await ckb('sync', '--app', app, 'https://example.com/a.pdf')).code).toBe(2);
    const missing = await ckb('sync', '--app', app, join(scratch, 'nope'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file or folder');
    expect(await sources(app)).toEqual([]);
  });
});

describe('ckb source update and ckb source sync', () => {
  it('updates a text source in place, a file source from a local file, and its name', async () => {
    const app = await newApplication();
    const { body } = await daemon.call('POST', '/sources', {
      application_id: app,
      type: 'text',
      name: 'hours',
      content: 'Open 9 to 5.',
    });
    await waitForSource(daemon, body.id);
    const text = await ckb(
      '--json',
      'source',
      'update',
      body.id,
      '--text',
      'Open 9 to 6 on Fridays.',
      '--wait',
    );
    expect(text.code, text.stderr).toBe(0);
    expect(JSON.parse(text.stdout)).toMatchObject({
      id: body.id,
      embed_status: 'COMPLETED',
      content: 'Open 9 to 6 on Fridays.',
    });
    const same = await ckb('source', 'update', body.id, '--text', 'Open 9 to 6 on Fridays.');
    expect(same.stderr).toContain('the content is unchanged; nothing to ingest');
    const renamed = await ckb('--json', 'source', 'update', body.id, '--name', 'opening hours');
    expect(JSON.parse(renamed.stdout).name).toBe('opening hours');

    const folder = await folderWith({ 'menu.md': '# Menu\n\nSoup of the day.\n' });
    const added = await ckb('source', 'add', '--app', app, '--file', join(folder, 'menu.md'), '--wait');
    const id = added.stdout.trim().split('\n')[0]!;
    const files = await fileCount();
    await writeFile(join(folder, 'menu.md'), '# Menu\n\nFish on Fridays.\n');
    const file = await ckb('source', 'update', id, '--file', join(folder, 'menu.md'), '--wait');
    expect(file.code, file.stderr).toBe(0);
    expect((await daemon.call('GET', `/sources/${id}/chunks`)).body[0].text).toContain('Fish on Fridays');
    expect(await fileCount()).toBe(files);
  });

  it.each([
    [['--text', 'a', '--url', 'https://example.com/'], 'at most one of'],
    [[], 'nothing to update'],
    [['--file', '/nonexistent/file.md'], 'no such file'],
    [['--sync-interval', 'soon'], 'duration such as 30m'],
  ])('source update %j is a usage error', async (args, message) => {
    const result = await ckb('source', 'update', 'src_any', ...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it('syncs web sources and says whether they changed; a text source is the API’s 400', async () => {
    let text = 'Ferries leave every hour.';
    const site = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(`<html><body><main><h1>Ferries</h1><p>${text}</p></main></body></html>`);
    });
    try {
      const app = await newApplication();
      const add = await ckb(
        'source',
        'add',
        '--app',
        app,
        '--url',
        `${site.origin}/ferries.html`,
        '--sync-interval',
        '6h',
        '--wait',
      );
      expect(add.code, add.stderr).toBe(0);
      const id = add.stdout.trim().split('\n')[0]!;
      expect((await daemon.call('GET', `/sources/${id}`)).body.sync_interval).toBe(6 * 3600);
      const unchanged = await ckb('source', 'sync', id, '--wait');
      expect(unchanged.code, unchanged.stderr).toBe(0);
      expect(unchanged.stdout).toMatch(new RegExp(`^${id}  .*: unchanged \\(1 page\\); next in 6h`));
      text = 'Ferries leave every half hour in summer.';
      const updated = await ckb('source', 'sync', '--app', app, '--wait');
      expect(updated.stdout).toMatch(/: updated: 1 page, 1 chunk; next in 6h/);
      const off = await ckb('--json', 'source', 'update', id, '--sync-interval', 'off');
      expect(JSON.parse(off.stdout).sync_interval).toBeNull();
      const get = await ckb('source', 'get', id);
      expect(get.stdout).toMatch(/synced\s+when asked/);

      const note = (
        await daemon.call('POST', '/sources', { application_id: app, type: 'text', name: 'n', content: 'x' })
      ).body;
      const refused = await ckb('source', 'sync', note.id);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('ckb source update ID --text');
      expect((await ckb('source', 'add', '--app', app, '--text', 'x', '--sync-interval', '1h')).code).toBe(2);
    } finally {
      await site.close();
    }
  });
});

describe('ckb watch', () => {
  it('syncs at start, then each change as it happens, and stops on Ctrl-C', async () => {
    const folder = await folderWith({ 'log.md': '# Log\n\nDay one: calm sea.\n' });
    const top = basename(folder);
    const app = await newApplication();
    const child = spawn(process.execPath, [cliEntry, 'watch', '--app', app, folder], {
      env: cliEnvironment(daemon.home, daemon.url),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    try {
      // stdout and stderr are separate pipes: what the first sync printed may arrive after "watching".
      const added = new RegExp(`added\\s+${top}/log.md`);
      await until(() => stderr.includes('watching') && added.test(stdout));
      expect(stderr).toContain('added 1, updated 0, unchanged 0, removed 0');
      const id = (await sources(app))[0].id;
      await writeFile(join(folder, 'log.md'), '# Log\n\nDay two: a gale from the west.\n');
      await until(() => /updated\s+\S+\/log\.md/.test(stdout));
      await writeFile(join(folder, 'chart.md'), '# Chart\n\nThe reef lies north.\n');
      await until(() => /added\s+\S+\/chart\.md/.test(stdout));
      await unlink(join(folder, 'chart.md'));
      await until(() => stderr.includes('chart.md has no file any more; its source stays'));
      const list = await sources(app);
      expect(list.find((source) => source.name === `${top}/log.md`)?.id).toBe(id);
      expect(list).toHaveLength(2);
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      child.kill('SIGINT');
      expect(await exited).toBe(130);
      expect(stderr).toContain('stopped watching');
    } finally {
      child.kill('SIGKILL');
    }
  });
});

async function until(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the command');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
