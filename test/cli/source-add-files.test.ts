import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { type CliResult, cliEnvironment, runCli } from './run.ts';

let daemon: TestDaemon;
let scratch: string;

function ckb(...args: string[]): Promise<CliResult> {
  return runCli(args, { env: cliEnvironment(daemon.home, daemon.url) });
}

/** Writes each file (path relative to a new folder under scratch) and returns the folder. */
async function folderWith(files: Record<string, string>): Promise<string> {
  const folder = await mkdtemp(join(scratch, 'docs-'));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(folder, path)), { recursive: true });
    await writeFile(join(folder, path), text);
  }
  return folder;
}

async function newApplication(): Promise<string> {
  return (await daemon.call('POST', '/applications', { name: 'Folder' })).body.id;
}

async function sourceNames(app: string): Promise<string[]> {
  const sources = (await daemon.call('GET', `/applications/${app}/sources`)).body;
  return sources.map((source: { name: string }) => source.name).sort();
}

beforeAll(async () => {
  daemon = await startTestDaemon();
  scratch = await mkdtemp(join(tmpdir(), 'ckb-cli-files-'));
});

afterAll(async () => {
  await daemon?.close();
  await rm(scratch, { recursive: true, force: true });
});

describe('source add --file with folders and several files', () => {
  it('walks a folder for its supported files, skipping hidden ones, names them by their path in it, and waits for them all', async () => {
    const folder = await folderWith({
      'guide.md': '# Guide\n\nWater the tomatoes every morning.\n',
      'NOTES.TXT': 'Basil likes warm sun.',
      'seasons/guide.md': '# Seasons\n\nEach season has its crops.\n',
      'seasons/spring.txt': 'Sow peas in March.',
      'seasons/autumn/harvest.json': JSON.stringify({ crop: 'squash', month: 'October' }),
      '.draft.md': 'hidden file',
      '.git/HEAD.md': 'hidden folder',
      'photo.png': 'not a document',
    });
    const app = await newApplication();

    const added = await ckb('--json', 'source', 'add', '--app', app, '--file', folder, '--wait');
    expect(added.code).toBe(0);
    expect(added.stderr).toContain('5/5 completed');
    const sources = JSON.parse(added.stdout);
    // Name order within each folder, depth first: the order the sources were created in.
    const names = [
      'NOTES.TXT',
      'guide.md',
      'seasons/autumn/harvest.json',
      'seasons/guide.md',
      'seasons/spring.txt',
    ].map((name) => `${basename(folder)}/${name}`);
    expect(sources.map((source: { name: string }) => source.name)).toEqual(names);
    for (const source of sources) expect(source).toMatchObject({ type: 'file', embed_status: 'COMPLETED' });
    expect(await sourceNames(app)).toEqual(names);
  });

  it('prints each created id on its own line without --wait, files and folders mixed', async () => {
    const folder = await folderWith({ 'a.md': 'Alpha.', 'more/b.md': 'Beta.', 'c.txt': 'Gamma.' });
    const app = await newApplication();

    // c.txt is named directly and found in the folder again: it is added once.
    const added = await ckb('source', 'add', '--app', app, '--file', join(folder, 'c.txt'), folder);
    expect(added.code).toBe(0);
    const ids = added.stdout.trim().split('\n');
    expect(ids).toHaveLength(3);
    for (const id of ids) expect(id).toMatch(/^src_[0-9A-Z]+$/);
    const names = await Promise.all(
      ids.map(async (id) => (await daemon.call('GET', `/sources/${id}`)).body.name),
    );
    expect(names).toEqual(['c.txt', `${basename(folder)}/a.md`, `${basename(folder)}/more/b.md`]);
  });

  it('refuses, with exit 2 and before any source exists, --name with several files, a missing path, an unsupported file and an empty folder', async () => {
    const folder = await folderWith({ 'a.md': 'Alpha.', 'b.md': 'Beta.', 'image.png': 'png' });
    const empty = await folderWith({ '.hidden.md': 'hidden', 'photo.png': 'png' });
    const app = await newApplication();
    const uploadedBefore = (await daemon.call('GET', '/files')).body.length;

    const named = await ckb('source', 'add', '--app', app, '--file', folder, '--name', 'Both');
    expect(named.code).toBe(2);
    expect(named.stderr).toContain('--name');
    const missing = await ckb(
      'source',
      'add',
      '--app',
      app,
      '--file',
      join(folder, 'a.md'),
      join(folder, 'gone.md'),
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`no such file or folder: ${join(folder, 'gone.md')}`);
    const unsupported = await ckb('source', 'add', '--app', app, '--file', join(folder, 'image.png'));
    expect(unsupported.code).toBe(2);
    expect(unsupported.stderr).toContain('unsupported file type');
    const nothing = await ckb('source', 'add', '--app', app, '--file', empty);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain(`no supported files in ${empty}`);

    expect(await sourceNames(app)).toEqual([]);
    expect((await daemon.call('GET', '/files')).body).toHaveLength(uploadedBefore);
  });

  it('exits 1 naming each source that failed, the others COMPLETED', async () => {
    const folder = await folderWith({
      'broken.pdf': 'this is not a PDF',
      'fine.md': '# Fine\n\nThis one reads well.\n',
      'also-fine.txt': 'So does this one.',
    });
    const app = await newApplication();

    const added = await ckb('--json', 'source', 'add', '--app', app, '--file', folder, '--wait');
    expect(added.code).toBe(1);
    expect(added.stderr).toContain('2/3 completed, 1 failed');
    expect(added.stderr).toMatch(
      /ckb: 1 of 3 sources failed:\n {2}\S+\/broken\.pdf: broken\.pdf could not be read: .+\n$/,
    );
    const sources = JSON.parse(added.stdout);
    const statuses = Object.fromEntries(
      sources.map((source: { name: string; embed_status: string }) => [source.name, source.embed_status]),
    );
    expect(statuses).toEqual({
      [`${basename(folder)}/also-fine.txt`]: 'COMPLETED',
      [`${basename(folder)}/broken.pdf`]: 'FAILED',
      [`${basename(folder)}/fine.md`]: 'COMPLETED',
    });
  });
});

describe('source add --file when an upload fails', () => {
  let small: TestDaemon;

  beforeAll(async () => {
    small = await startTestDaemon({ config: { limits: { upload_bytes: 64 } } });
  });

  afterAll(async () => {
    await small?.close();
  });

  it('stops, names the file and says how many sources were created', async () => {
    const folder = await folderWith({
      'a.md': 'Alpha.',
      'b.md': 'x'.repeat(1000),
      'c.md': 'Gamma.',
    });
    const app = (await small.call('POST', '/applications', { name: 'Small' })).body.id;

    const added = await runCli(['source', 'add', '--app', app, '--file', folder], {
      env: cliEnvironment(small.home, small.url),
    });
    expect(added.code).toBe(1);
    expect(added.stderr).toMatch(
      new RegExp(
        `ckb: could not upload ${join(folder, 'b.md')}: .*upload limit.*; 0 sources were already created`,
      ),
    );
    expect(added.stdout).toBe('');
    expect((await small.call('GET', `/applications/${app}/sources`)).body).toEqual([]);
  });
});
