import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { startTestDaemon } from '../support/daemon.ts';
import { spawnDaemon } from '../support/daemon-process.ts';
import { newHome } from '../support/home.ts';
import { sleep } from './support.ts';

test('an upload cut short by SIGKILL leaves no partial file behind after restart, and finished files stay', async () => {
  const home = await newHome();
  try {
    let daemon = await spawnDaemon(home);
    const presign = async (name: string) =>
      (await daemon.call('GET', `/files/presigned-url?name=${name}`)).body;
    const kept = await presign('kept.txt');
    expect((await fetch(kept.presigned_url, { method: 'PUT', body: 'kept' })).status).toBe(200);
    const cut = new URL((await presign('cut.txt')).presigned_url);
    const request = httpRequest({
      host: cut.hostname,
      port: cut.port,
      path: `${cut.pathname}${cut.search}`,
      method: 'PUT',
      headers: { 'content-length': '1000000' },
    });
    request.on('error', () => {});
    request.write('x'.repeat(100_000));
    const filesDir = join(home, 'data', 'files');
    for (
      let waited = 0;
      !(await readdir(filesDir)).some((name) => name.endsWith('.part')) && waited < 50;
      waited++
    )
      await sleep(20);
    expect((await readdir(filesDir)).some((name) => name.endsWith('.part'))).toBe(true);
    await daemon.kill('SIGKILL');
    daemon = await spawnDaemon(home);
    const stored = await readdir(filesDir);
    expect(stored.filter((name) => name.endsWith('.part'))).toEqual([]);
    expect(stored).toEqual([`${kept.file_id}.txt`]);
    expect((await daemon.call('GET', '/files')).body.map((file: { id: string }) => file.id)).toEqual([
      kept.file_id,
    ]);
    await daemon.kill('SIGTERM');
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});

test('in a files directory other processes share, only leftovers older than an upload address lives are removed', async () => {
  const shared = await mkdtemp(join(tmpdir(), 'ckb-shared-files-'));
  const filesDir = join(shared, 'files');
  await mkdir(filesDir);
  const old = new Date(Date.now() - 16 * 60_000);
  const leftovers = {
    'file_01OLDPART000000000000000000.txt.part': old,
    'file_01OLDORPHAN0000000000000000.txt': old,
    // Another process is receiving this one, or has just written it and is about to commit its record.
    'file_01FRESHPART0000000000000000.txt.part': new Date(),
    'file_01FRESHORPHAN00000000000000.txt': new Date(),
  };
  for (const [name, modified] of Object.entries(leftovers)) {
    await writeFile(join(filesDir, name), 'bytes');
    await utimes(join(filesDir, name), modified, modified);
  }
  const daemon = await startTestDaemon({ config: { files_uri: filesDir } });
  try {
    expect((await readdir(filesDir)).sort()).toEqual([
      'file_01FRESHORPHAN00000000000000.txt',
      'file_01FRESHPART0000000000000000.txt.part',
    ]);
  } finally {
    await daemon.close();
    await rm(shared, { recursive: true, force: true });
  }
});
