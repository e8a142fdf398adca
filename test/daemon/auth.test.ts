import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestDaemon, type TestDaemon } from '../support/daemon.ts';

let daemon: TestDaemon;
beforeAll(async () => {
  daemon = await startTestDaemon();
});
afterAll(() => daemon.close());

async function createKey(account: string, admin = false): Promise<string> {
  const { status, body } = await daemon.call('POST', '/admin/keys', { account, admin });
  expect(status).toBe(201);
  return body.key;
}

async function filesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

describe('authentication and accounts', () => {
  test('first start writes the admin key to config.json, readable by the owner only', async () => {
    const config = JSON.parse(await readFile(join(daemon.home, 'config.json'), 'utf8'));
    expect(config.api_key).toMatch(/^ckb_/);
    expect((await stat(join(daemon.home, 'config.json'))).mode & 0o777).toBe(0o600);
  });

  test('health and openapi need no key; everything else does', async () => {
    expect((await daemon.call('GET', '/health', undefined, null)).status).toBe(200);
    expect((await daemon.call('GET', '/openapi.json', undefined, null)).status).toBe(200);
    for (const [header, label] of [
      [undefined, 'no header'],
      ['Basic abc', 'malformed'],
      ['Bearer', 'empty bearer'],
      ['Bearer ckb_unknown', 'unknown key'],
    ] as const) {
      const response = await fetch(`${daemon.url}/applications`, {
        headers: header ? { authorization: header } : {},
      });
      expect(response.status, label).toBe(401);
      expect(((await response.json()) as any).error.type).toBe('unauthorized');
    }
  });

  test('keys are stored only as hashes', async () => {
    const key = await createKey('hash-check');
    for (const file of await filesUnder(join(daemon.home, 'data'))) {
      const bytes = await readFile(file);
      expect(bytes.includes(key), file).toBe(false);
      expect(bytes.includes(daemon.apiKey), file).toBe(false);
    }
  });

  test('admin routes need an admin key', async () => {
    const userKey = await createKey('plain-user');
    expect((await daemon.call('GET', '/admin/keys', undefined, userKey)).status).toBe(403);
    expect((await daemon.call('POST', '/admin/keys', { account: 'x' }, userKey)).body.error.type).toBe(
      'forbidden',
    );
    const listed = await daemon.call('GET', '/admin/keys');
    expect(listed.status).toBe(200);
    expect(listed.body.length).toBeGreaterThanOrEqual(2);
    for (const key of listed.body) expect(key).not.toHaveProperty('key');
  });

  test('an invalid account name is a 400', async () => {
    const response = await daemon.call('POST', '/admin/keys', { account: 'Not Valid!' });
    expect(response.status).toBe(400);
    expect(response.body.error.param).toBe('account');
  });

  test('a revoked key is refused at once', async () => {
    const { body: created } = await daemon.call('POST', '/admin/keys', { account: 'revocable' });
    expect((await daemon.call('GET', '/applications', undefined, created.key)).status).toBe(200);
    expect((await daemon.call('DELETE', `/admin/keys/${created.id}`)).body).toEqual({
      id: created.id,
      deleted: true,
    });
    expect((await daemon.call('GET', '/applications', undefined, created.key)).status).toBe(401);
    expect((await daemon.call('DELETE', `/admin/keys/${created.id}`)).status).toBe(404);
  });

  test("one account never sees or changes another's resources", async () => {
    const alice = await createKey('alice');
    const bob = await createKey('bob');
    const { body: app } = await daemon.call('POST', '/applications', { name: 'alice app' }, alice);
    const { body: source } = await daemon.call(
      'POST',
      '/sources',
      { application_id: app.id, name: 'note', type: 'text', content: 'Alice keeps her notes here.' },
      alice,
    );
    const { body: reply } = await daemon.call(
      'POST',
      '/conversations',
      { application_id: app.id, message: 'notes?' },
      alice,
    );
    expect(reply.conversation_id).toMatch(/^conv_/);

    const attempts: [string, string, unknown?][] = [
      ['GET', `/applications/${app.id}`],
      ['PUT', `/applications/${app.id}`, { name: 'mine now' }],
      ['DELETE', `/applications/${app.id}`],
      ['GET', `/applications/${app.id}/sources`],
      ['DELETE', `/applications/${app.id}/sources`],
      ['GET', `/applications/${app.id}/conversations`],
      ['POST', `/applications/${app.id}/search`, { query: 'notes' }],
      ['GET', `/sources?application_id=${app.id}`],
      ['POST', '/sources', { application_id: app.id, name: 'x', type: 'text', content: 'y' }],
      ['GET', `/sources/${source.id}`],
      ['GET', `/sources/${source.id}/chunks`],
      ['DELETE', `/sources/${source.id}`],
      ['POST', '/conversations', { application_id: app.id, message: 'hi' }],
      ['POST', '/conversations', { conversation_id: reply.conversation_id, message: 'hi' }],
      ['GET', `/conversations/${reply.conversation_id}`],
      ['PUT', `/conversations/${reply.conversation_id}`, { title: 'stolen' }],
      ['DELETE', `/conversations/${reply.conversation_id}`],
    ];
    for (const [method, path, body] of attempts) {
      const response = await daemon.call(method, path, body, bob);
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body.error.type).toBe('not_found');
    }
    for (const path of ['/applications', '/sources', '/conversations', '/files']) {
      expect((await daemon.call('GET', path, undefined, bob)).body, path).toEqual([]);
    }
    expect((await daemon.call('GET', `/applications/${app.id}`, undefined, alice)).body.name).toBe(
      'alice app',
    );
    expect(
      (await daemon.call('GET', `/conversations/${reply.conversation_id}`, undefined, alice)).body.messages,
    ).toHaveLength(2);
    expect((await daemon.call('GET', `/sources/${source.id}`, undefined, alice)).status).toBe(200);
  });
});
