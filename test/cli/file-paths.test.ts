import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOURCE_NAME_MAX_CHARACTERS } from '../../src/api/sources.ts';
import { expandFilePaths, skippedNotice } from '../../src/cli/file-paths.ts';

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'ckb-paths-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('expandFilePaths', () => {
  it("names a folder's files by their path from the folder on; files and URLs given directly keep their own", async () => {
    await mkdir(join(folder, 'docs/api'), { recursive: true });
    await writeFile(join(folder, 'docs/install.md'), 'Install.');
    await writeFile(join(folder, 'docs/api/install.md'), 'Install the API.');
    await writeFile(join(folder, 'notes.txt'), 'Notes.');
    const expanded = expandFilePaths([
      join(folder, 'docs'),
      join(folder, 'notes.txt'),
      'https://example.com/report.pdf',
    ]);
    expect(expanded).toEqual({
      ok: true,
      value: [
        { path: join(folder, 'docs/api/install.md'), name: 'docs/api/install.md' },
        { path: join(folder, 'docs/install.md'), name: 'docs/install.md' },
        { path: join(folder, 'notes.txt') },
        { path: 'https://example.com/report.pdf' },
      ],
      skipped: [],
    });
  });

  it('keeps the end of a path too long for a source name, and drops control characters', async () => {
    const deep = join(
      folder,
      'deep',
      ...Array.from({ length: 12 }, (_, level) => `level-${level}-${'x'.repeat(20)}`),
    );
    await mkdir(deep, { recursive: true });
    await writeFile(join(deep, 'tab\tname.md'), 'Deep.');
    const expanded = expandFilePaths([join(folder, 'deep')]);
    if (!expanded.ok) expect.fail(expanded.error);
    const [file] = expanded.value;
    expect(file?.name).toHaveLength(SOURCE_NAME_MAX_CHARACTERS);
    expect(file?.name).toMatch(/^….+\/level-11-x+\/tabname\.md$/);
    expect(basename(file!.path)).toBe('tab\tname.md');
  });

  it('reports the files of unsupported types a folder held, and takes uploaded file ids as they are', async () => {
    await mkdir(join(folder, 'mixed/.hidden'), { recursive: true });
    await writeFile(join(folder, 'mixed/keep.md'), 'Keep.');
    await writeFile(join(folder, 'mixed/photo.jpg'), 'jpg');
    await writeFile(join(folder, 'mixed/.hidden/secret.png'), 'png');
    const id = 'file_01ABCDEFGHJKMNPQRSTVWXYZ00';
    expect(expandFilePaths([join(folder, 'mixed'), id])).toEqual({
      ok: true,
      value: [{ path: join(folder, 'mixed/keep.md'), name: 'mixed/keep.md' }, { path: id }],
      skipped: [join(folder, 'mixed/photo.jpg')],
    });
    expect(skippedNotice([join(folder, 'mixed/photo.jpg')])).toMatch(
      /^skipped 1 file of unsupported types \(\.jpg\); supported: \.pdf/,
    );
    expect(skippedNotice([])).toBeUndefined();
  });
});
