import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Endpoint } from '../../src/api/endpoints.ts';
import { startTestDaemon, type TestDaemon, waitForSource } from '../support/daemon.ts';
import { concretePath, errorCode, expectContractError, GUARDED, type Response, snapshot } from './support.ts';

let daemon: TestDaemon;
/** Account A's resources, which every other credential probes. */
let owned: { application: string; source: string; conversation: string; key: string };
let keys: { revoked: string; other: string; otherAdmin: string; ownNonAdmin: string };
let before: unknown;

async function createKey(account: string, admin: boolean): Promise<{ id: string; key: string }> {
  const response = await daemon.call('POST', '/admin/keys', { account, admin });
  expect(response.status).toBe(201);
  return response.body;
}

beforeAll(async () => {
  daemon = await startTestDaemon();
  const application = (await daemon.call('POST', '/applications', { name: 'private' })).body.id;
  const source = (
    await daemon.call('POST', '/sources', {
      application_id: application,
      type: 'text',
      name: 'secret plans',
      content: 'The vault code is kept under the harbour lantern.',
    })
  ).body.id;
  await waitForSource(daemon, source);
  const conversation = (
    await daemon.call('POST', '/conversations', {
      application_id: application,
      message: 'Where is the code?',
    })
  ).body.conversation_id;
  const presigned = (await daemon.call('GET', '/files/presigned-url?name=plans.txt')).body;
  const uploaded = await fetch(presigned.presigned_url, { method: 'PUT', body: 'vault code' });
  expect(uploaded.status).toBe(200);
  const victim = await createKey('default', false);
  owned = { application, source, conversation, key: victim.id };

  const revoked = await createKey('default', false);
  expect((await daemon.call('DELETE', `/admin/keys/${revoked.id}`)).status).toBe(200);
  keys = {
    revoked: revoked.key,
    other: (await createKey('mallory', false)).key,
    otherAdmin: (await createKey('eve', true)).key,
    ownNonAdmin: victim.key,
  };
  before = await snapshot(daemon);
});

afterAll(() => daemon.close());

function idFor(endpoint: Endpoint): string {
  if (endpoint.path.startsWith('/applications/')) return owned.application;
  if (endpoint.path.startsWith('/sources/')) return owned.source;
  if (endpoint.path.startsWith('/conversations/')) return owned.conversation;
  if (endpoint.path.startsWith('/v1/models/')) return owned.application;
  return owned.key;
}

/** A body that would succeed for the owner, so only the credential decides the answer. */
function validBody(endpoint: Endpoint): unknown {
  const bodies: Record<string, unknown> = {
    'post /applications': { name: 'intruder' },
    'put /applications/{id}': { name: 'renamed by an intruder' },
    'post /applications/{id}/search': { query: 'vault code' },
    'post /sources': {
      application_id: owned.application,
      type: 'text',
      name: 'planted',
      content: 'planted text',
    },
    'put /sources/{id}': { name: 'renamed by an intruder', content: 'planted text' },
    'post /conversations': { application_id: owned.application, message: 'Where is the vault code?' },
    'put /conversations/{id}': { title: 'taken over' },
    'post /admin/keys': { account: 'default', admin: true },
    'post /v1/chat/completions': {
      model: owned.application,
      messages: [{ role: 'user', content: 'Where is the vault code?' }],
    },
    'post /mcp': {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'search', arguments: { application_id: owned.application, query: 'vault code' } },
    },
  };
  return bodies[`${endpoint.method} ${endpoint.path}`];
}

function requestPath(endpoint: Endpoint): string {
  const path = concretePath(endpoint, idFor(endpoint));
  return endpoint.path === '/sources' && endpoint.method === 'get'
    ? `${path}?application_id=${owned.application}`
    : path;
}

async function callWithHeader(endpoint: Endpoint, header: string | undefined): Promise<Response> {
  const body = validBody(endpoint);
  const response = await fetch(`${daemon.url}${requestPath(endpoint)}`, {
    method: endpoint.method.toUpperCase(),
    headers: {
      // MCP's transport wants both; every other endpoint answers JSON either way.
      accept: 'application/json, text/event-stream',
      ...(header === undefined ? {} : { authorization: header }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : text, headers: response.headers };
}

const label = (endpoint: Endpoint) => `${endpoint.method.toUpperCase()} ${endpoint.path}`;

describe('every guarded endpoint refuses callers without a valid key', () => {
  const credentials: [string, () => string | undefined][] = [
    ['no key', () => undefined],
    ['an empty header', () => ''],
    ['a Basic header', () => `Basic ${Buffer.from(`user:${daemon.apiKey}`).toString('base64')}`],
    ['a bare Bearer', () => 'Bearer'],
    ['two tokens', () => `Bearer ${daemon.apiKey} ${daemon.apiKey}`],
    ['the key without its scheme', () => daemon.apiKey],
    ['an unknown key', () => 'Bearer ckb_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['a key one character short', () => `Bearer ${daemon.apiKey.slice(0, -1)}`],
    ['a revoked key', () => `Bearer ${keys.revoked}`],
  ];
  for (const [name, header] of credentials) {
    test(name, async () => {
      for (const endpoint of GUARDED) {
        const response = await callWithHeader(endpoint, header());
        expect(response.status, `${label(endpoint)} with ${name}`).toBe(401);
        expectContractError(response, `${label(endpoint)} with ${name}`, endpoint);
        expect(errorCode(endpoint, response.body)).toBe(
          endpoint.errorShape === 'openai' ? 'invalid_api_key' : 'unauthorized',
        );
      }
      expect(await snapshot(daemon)).toEqual(before);
    });
  }
});

describe("another account's keys see and change nothing of account A", () => {
  for (const [name, pick] of [
    ["another account's key", () => keys.other],
    ["another account's admin key", () => keys.otherAdmin],
  ] as const) {
    test(name, async () => {
      const key = pick();
      for (const endpoint of GUARDED) {
        // Admin keys administer the whole daemon by design; account isolation is about every other route.
        if (endpoint.auth === 'admin' && key === keys.otherAdmin) continue;
        const response = await callWithHeader(endpoint, `Bearer ${key}`);
        const context = `${label(endpoint)} with ${name}`;
        if (endpoint.auth === 'admin') {
          expect(response.status, context).toBe(403);
          expectContractError(response, context);
          continue;
        }
        if (
          endpoint.path.includes('{id}') ||
          (endpoint.path === '/conversations' && endpoint.method === 'post') ||
          endpoint.path === '/v1/chat/completions'
        ) {
          expect(response.status, context).toBe(404);
          expectContractError(response, context, endpoint);
        } else if (endpoint.path === '/mcp') {
          // The tool answers, for the caller's account, that it has no such application.
          expect(response.status, context).toBe(200);
          expect(response.body.result, context).toMatchObject({ isError: true });
        } else if (endpoint.path === '/v1/models') {
          // The caller's own models only: at most the application it created itself above.
          expect(response.status, context).toBe(200);
          expect(response.body.object, context).toBe('list');
          expect(response.body.data.map((model: { id: string }) => model.id)).not.toContain(
            owned.application,
          );
        } else if (endpoint.method === 'post' && endpoint.path === '/sources') {
          expect(response.status, context).toBe(404);
        } else if (endpoint.method === 'get' && endpoint.path !== '/files/presigned-url') {
          // Lists answer with the caller's own (empty) items, or 404 for A's application filter.
          if (response.status === 200) expect(response.body, context).toEqual([]);
          else expect(response.status, context).toBe(404);
        }
        expect(JSON.stringify(response.body), context).not.toMatch(/vault|harbour|secret plans|plans\.txt/);
      }
      // The intruder's own POST /applications succeeds in its own account; account A sees none of it.
      expect(await snapshot(daemon)).toEqual(before);
    });
  }

  test('a non-admin key of the same account gets 403 on every admin route', async () => {
    for (const endpoint of GUARDED.filter((candidate) => candidate.auth === 'admin')) {
      const response = await callWithHeader(endpoint, `Bearer ${keys.ownNonAdmin}`);
      expect(response.status, label(endpoint)).toBe(403);
      expectContractError(response, label(endpoint));
      expect(response.body.error.type).toBe('forbidden');
    }
    expect(await snapshot(daemon)).toEqual(before);
  });

  test('the daemon log never holds a key, even after every refused attempt', async () => {
    await daemon.restart();
    const logs = join(daemon.home, 'logs');
    const texts = await Promise.all((await readdir(logs)).map((name) => readFile(join(logs, name), 'utf8')));
    const log = texts.join('\n');
    expect(log).toContain('"status":401');
    for (const secret of [daemon.apiKey, keys.revoked, keys.other, keys.otherAdmin, keys.ownNonAdmin]) {
      expect(log).not.toContain(secret);
      expect(log).not.toContain(secret.slice(8));
    }
  });
});
