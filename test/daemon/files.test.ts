import { readdir } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Clock } from '../../daemon/clock.ts';
import { startTestDaemon, type TestDaemon } from '../support/daemon.ts';

/** A clock the test can move forward, to expire pre-signed addresses without waiting 15 minutes. */
const offset = { ms: 0 };
const clock: Clock = { now: () => new Date(Date.now() + offset.ms) };

let daemon: TestDaemon;
beforeAll(async () => {
  daemon = await startTestDaemon({ clock, config: { limits: { upload_bytes: 64 * 1024 } } });
});
afterAll(() => daemon.close());

async function presign(name?: string): Promise<{ file_id: string; presigned_url: string }> {
  const response = await daemon.call(
    'GET',
    `/files/presigned-url${name ? `?name=${encodeURIComponent(name)}` : ''}`,
  );
  expect(response.status).toBe(200);
  return response.body;
}

async function put(url: string, body: string | Uint8Array, headers: Record<string, string> = {}) {
  const response = await fetch(url, { method: 'PUT', body, headers });
  return { status: response.status, body: (await response.json()) as any };
}

describe('files', () => {
  test('pre-sign, upload without a key, then list', async () => {
    const { file_id, presigned_url } = await presign('notes.md');
    expect(file_id).toMatch(/^file_[0-9A-Z]{26}$/);
    expect(presigned_url).toMatch(
      new RegExp(`^${daemon.url}/files/upload/${file_id}\\?.*expires=\\d+.*signature=[0-9a-f]{64}`),
    );
    const uploaded = await put(presigned_url, '# Notes\n\nThe kettle is in the second cupboard.\n');
    expect(uploaded.status).toBe(200);
    expect(uploaded.body).toMatchObject({
      id: file_id,
      name: 'notes.md',
      uploaded_at: expect.stringMatching(/Z$/),
    });
    const listed = (await daemon.call('GET', '/files')).body;
    expect(listed[0]).toMatchObject({ id: file_id, name: 'notes.md' });
  });

  test('the name can come from X-File-Name or Content-Disposition, and is reduced to a base name', async () => {
    const first = await presign();
    expect((await put(first.presigned_url, 'hello', { 'x-file-name': '../../etc/evil.txt' })).body.name).toBe(
      'evil.txt',
    );
    const second = await presign();
    const byDisposition = await put(second.presigned_url, 'hello', {
      'content-disposition': 'attachment; filename="report.txt"',
    });
    expect(byDisposition.body.name).toBe('report.txt');
    const files = await readdir(join(daemon.home, 'data', 'files'));
    expect(files.every((file) => file.startsWith('file_'))).toBe(true);
  });

  test('a malformed percent-encoded Content-Disposition name is a 400, and nothing is stored', async () => {
    const { presigned_url, file_id } = await presign();
    const answer = await put(presigned_url, 'hello', {
      'content-disposition': "attachment; filename*=UTF-8''%E0%A4%A.txt",
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ type: 'invalid_request', param: 'content-disposition' });
    expect((await daemon.call('GET', '/files')).body.map((file: { id: string }) => file.id)).not.toContain(
      file_id,
    );
    const encoded = await presign();
    const named = await put(encoded.presigned_url, 'hello', {
      'content-disposition': "attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.txt",
    });
    expect(named.body.name).toBe('résumé.txt');
  });

  test("the pre-signed URL is the daemon's own address, whatever Host the request names", async () => {
    // node:http sends the Host header as given (fetch would replace it).
    const body = await new Promise<string>((resolve, reject) => {
      const request = httpRequest(`${daemon.url}/files/presigned-url?name=host.txt`, {
        headers: {
          authorization: `Bearer ${daemon.apiKey}`,
          host: 'attacker.example',
          'x-forwarded-host': 'evil.example',
        },
      });
      request.on('response', async (response) => {
        let text = '';
        for await (const chunk of response) text += chunk;
        resolve(text);
      });
      request.on('error', reject);
      request.end();
    });
    const { presigned_url } = JSON.parse(body) as { presigned_url: string };
    expect(new URL(presigned_url).origin).toBe(daemon.url);
  });

  test('a spent address is refused (403) and the file stays as first uploaded', async () => {
    const { presigned_url, file_id } = await presign('once.txt');
    expect((await put(presigned_url, 'first')).status).toBe(200);
    const again = await put(presigned_url, 'second');
    expect(again.status).toBe(403);
    expect(again.body.error.type).toBe('forbidden');
    expect(again.body.error.message).toMatch(/already used/);
    expect(
      (await daemon.call('GET', '/files')).body.filter((file: { id: string }) => file.id === file_id),
    ).toHaveLength(1);
  });

  test('a tampered address is refused (403)', async () => {
    const { presigned_url } = await presign('tamper.txt');
    const url = new URL(presigned_url);
    url.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    expect((await put(url.toString(), 'x')).status).toBe(403);
    const renamed = new URL(presigned_url);
    renamed.searchParams.set('name', 'tamper.md');
    expect((await put(renamed.toString(), 'x')).status).toBe(403);
    const otherId = presigned_url.replace(/file_[0-9A-Z]+/, 'file_01ABCDEFGHJKMNPQRSTVWXYZ00');
    expect((await put(otherId, 'x')).status).toBe(403);
  });

  test('an expired address is refused (403) after 15 minutes', async () => {
    const { presigned_url } = await presign('late.txt');
    offset.ms = 15 * 60 * 1000 + 1000;
    try {
      const response = await put(presigned_url, 'too late');
      expect(response.status).toBe(403);
      expect(response.body.error.message).toMatch(/expired/);
    } finally {
      offset.ms = 0;
    }
  });

  test('an unsupported extension is a 415, at pre-sign or upload time', async () => {
    const atPresign = await daemon.call('GET', '/files/presigned-url?name=tool.exe');
    expect(atPresign.status).toBe(415);
    expect(atPresign.body.error.type).toBe('unsupported_media_type');
    const { presigned_url } = await presign();
    const response = await put(presigned_url, 'MZ', { 'x-file-name': 'tool.exe' });
    expect(response.status).toBe(415);
    const retry = await put(presigned_url, 'fine', { 'x-file-name': 'tool.txt' });
    expect(retry.status).toBe(200);
  });

  test('an upload over the size limit is a 413 and leaves nothing behind', async () => {
    const before = await readdir(join(daemon.home, 'data', 'files'));
    const { presigned_url, file_id } = await presign('big.txt');
    const response = await put(presigned_url, new Uint8Array(65 * 1024).fill(65));
    expect(response.status).toBe(413);
    expect(response.body.error.type).toBe('payload_too_large');
    expect(await readdir(join(daemon.home, 'data', 'files'))).toEqual(before);
    expect(
      (await daemon.call('GET', '/files')).body.some((file: { id: string }) => file.id === file_id),
    ).toBe(false);
  });

  test('files survive a restart', async () => {
    const { presigned_url, file_id } = await presign('keep.txt');
    await put(presigned_url, 'kept');
    await daemon.restart();
    expect(
      (await daemon.call('GET', '/files')).body.some((file: { id: string }) => file.id === file_id),
    ).toBe(true);
  });
});
