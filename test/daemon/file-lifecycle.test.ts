import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestDaemon, type TestDaemon, waitForSource } from '../support/daemon.ts';

/** Room for about two small files per account, so the limit is reached in a few steps. */
const STORAGE_LIMIT = 4_000;

let daemon: TestDaemon;
beforeAll(async () => {
  daemon = await startTestDaemon({ config: { limits: { account_storage_bytes: STORAGE_LIMIT } } });
});
afterAll(() => daemon.close());

async function upload(name: string, body: string, key?: string) {
  const presigned = (await daemon.call('GET', `/files/presigned-url?name=${name}`, undefined, key)).body;
  const response = await fetch(presigned.presigned_url, { method: 'PUT', body });
  return { status: response.status, body: (await response.json()) as any, id: presigned.file_id as string };
}

async function storedFiles(): Promise<string[]> {
  return readdir(join(daemon.home, 'data', 'files'));
}

describe('deleting files', () => {
  test('a file no source uses is deleted with its bytes; one in use answers 409 naming its sources', async () => {
    const unused = await upload('unused.txt', 'Nobody reads this file.');
    const used = await upload('used.txt', 'The boiler is serviced every October.');
    const application = (await daemon.call('POST', '/applications', { name: 'files' })).body.id;
    const source = (
      await daemon.call('POST', '/sources', {
        application_id: application,
        type: 'file',
        name: 'used.txt',
        content: used.id,
      })
    ).body;
    await waitForSource(daemon, source.id);

    const refused = await daemon.call('DELETE', `/files/${used.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ type: 'conflict' });
    expect(refused.body.error.message).toContain(source.id);
    expect((await storedFiles()).some((name) => name.startsWith(used.id))).toBe(true);

    expect((await daemon.call('DELETE', `/files/${unused.id}`)).body).toEqual({
      id: unused.id,
      deleted: true,
    });
    expect((await storedFiles()).some((name) => name.startsWith(unused.id))).toBe(false);
    expect((await daemon.call('DELETE', `/files/${unused.id}`)).status).toBe(404);
    const listed = (await daemon.call('GET', '/files')).body.map((file: { id: string }) => file.id);
    expect(listed).toContain(used.id);
    expect(listed).not.toContain(unused.id);

    // Once its source is gone, the file can go.
    await daemon.call('DELETE', `/sources/${source.id}`);
    expect((await daemon.call('DELETE', `/files/${used.id}`)).status).toBe(200);
  });

  test("another account's file is not found", async () => {
    const other = (await daemon.call('POST', '/admin/keys', { account: 'other-files' })).body.key;
    const theirs = await upload('theirs.txt', 'Private notes of another account.', other);
    expect(theirs.status).toBe(200);
    expect((await daemon.call('DELETE', `/files/${theirs.id}`)).status).toBe(404);
  });
});

describe('the storage limit of an account', () => {
  test('an upload or a text that would pass it is refused with 413, and nothing is stored', async () => {
    const key = (await daemon.call('POST', '/admin/keys', { account: 'limited' })).body.key;
    const first = await upload('first.txt', 'x'.repeat(2_500), key);
    expect(first.status).toBe(200);
    const before = await storedFiles();
    const second = await upload('second.txt', 'y'.repeat(2_500), key);
    expect(second.status).toBe(413);
    expect(second.body.error.message).toContain('account_storage_bytes');
    expect(await storedFiles()).toEqual(before);

    const application = (await daemon.call('POST', '/applications', { name: 'limited' }, key)).body.id;
    const text = await daemon.call(
      'POST',
      '/sources',
      { application_id: application, type: 'text', name: 'big', content: 'z'.repeat(2_000) },
      key,
    );
    expect(text.status).toBe(413);
    expect((await daemon.call('GET', '/sources', undefined, key)).body).toEqual([]);

    // Other accounts have room of their own.
    expect((await upload('mine.txt', 'w'.repeat(2_500))).status).toBe(200);
    // Deleting frees room.
    expect((await daemon.call('DELETE', `/files/${first.id}`, undefined, key)).status).toBe(200);
    expect((await upload('third.txt', 'v'.repeat(2_500), key)).status).toBe(200);
  });
});

describe('upload addresses and keys', () => {
  test('an address asked for with a key that is revoked since is refused', async () => {
    const created = (await daemon.call('POST', '/admin/keys', { account: 'revoked-uploads' })).body;
    const presigned = (await daemon.call('GET', '/files/presigned-url?name=late.txt', undefined, created.key))
      .body;
    expect((await daemon.call('DELETE', `/admin/keys/${created.id}`)).status).toBe(200);
    const response = await fetch(presigned.presigned_url, { method: 'PUT', body: 'too late' });
    expect(response.status).toBe(403);
    expect(((await response.json()) as any).error.message).toContain('revoked');
  });

  test('the key in an address cannot be swapped for another', async () => {
    const presigned = (await daemon.call('GET', '/files/presigned-url?name=swap.txt')).body;
    const other = (await daemon.call('POST', '/admin/keys', { account: 'swap' })).body;
    const url = new URL(presigned.presigned_url);
    url.searchParams.set('key', other.id);
    expect((await fetch(url, { method: 'PUT', body: 'swapped' })).status).toBe(403);
  });
});

describe('paging', () => {
  test.each(['/applications', '/sources', '/files', '/conversations'])(
    '%s refuses an after that is not an id of the list',
    async (path) => {
      for (const after of ['nonsense', 'app_nothing', 'key_01JD0000000000000000000000']) {
        const response = await daemon.call('GET', `${path}?after=${after}`);
        expect(response.status, after).toBe(400);
        expect(response.body.error.param).toBe('after');
      }
    },
  );

  test('an after naming an item deleted since still pages', async () => {
    const ids: string[] = [];
    for (const name of ['one', 'two', 'three'])
      ids.push((await daemon.call('POST', '/applications', { name })).body.id);
    await daemon.call('DELETE', `/applications/${ids[2]}`);
    const page = (await daemon.call('GET', `/applications?after=${ids[2]}&limit=2`)).body;
    expect(page.map((application: { id: string }) => application.id)).toEqual([ids[1], ids[0]]);
  });
});
