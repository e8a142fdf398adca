import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runDaemon } from '../../daemon/main.ts';
import { ENDPOINTS } from '../../src/api/endpoints.ts';
import { startTestDaemon, waitForSource } from '../support/daemon.ts';
import { newHome, testDatabaseKind } from '../support/home.ts';
import { openHomeDatabase, readStorage, storageProblems } from '../support/storage.ts';

describe('daemon lifecycle', () => {
  test('runs on Node 24', () => {
    expect(process.versions.node.split('.')[0]).toBe('24');
  });

  test('health, OpenAPI document with every endpoint of the spec and the contract', async () => {
    const daemon = await startTestDaemon();
    try {
      expect((await daemon.call('GET', '/health')).body).toEqual({
        status: 'ok',
        version: expect.any(String),
        role: 'api and ingestion',
        database: { status: 'ok', kind: testDatabaseKind() },
        lancedb: { status: 'ok' },
        queue: { waiting: 0, leased: 0, failed: 0 },
      });
      const { body: document } = await daemon.call('GET', '/openapi.json');
      expect(document.openapi).toBe('3.1.0');
      const required = [
        'get /conversations',
        'post /conversations',
        'get /conversations/{id}',
        'put /conversations/{id}',
        'delete /conversations/{id}',
        'get /applications',
        'post /applications',
        'get /applications/{id}',
        'put /applications/{id}',
        'delete /applications/{id}',
        'get /applications/{id}/conversations',
        'get /applications/{id}/sources',
        'delete /applications/{id}/sources',
        'get /sources',
        'post /sources',
        'get /sources/{id}',
        'delete /sources/{id}',
        'get /files',
        'get /files/presigned-url',
        'get /health',
        'get /openapi.json',
        'post /admin/keys',
        'get /admin/keys',
        'delete /admin/keys/{id}',
        'post /applications/{id}/search',
        'get /sources/{id}/chunks',
        'put /files/upload/{id}',
      ];
      for (const operation of required) {
        const [method, path] = operation.split(' ') as [string, string];
        expect(document.paths[path]?.[method], operation).toBeDefined();
      }
      expect(Object.values(document.paths).flatMap((item) => Object.keys(item as object))).toHaveLength(
        ENDPOINTS.length,
      );
      expect(
        document.paths['/applications'].post.requestBody.content['application/json'].schema.required,
      ).toEqual(['name']);

      // Every operation is named, uniquely; its 4xx answers are listed; the server is this daemon.
      const operations = Object.values(document.paths).flatMap((item) => Object.values(item as object));
      const ids = operations.map((operation) => operation.operationId);
      expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
      expect(new Set(ids).size).toBe(ids.length);
      expect(document.servers).toEqual([{ url: daemon.url }]);
      const statuses = (method: string, path: string) => Object.keys(document.paths[path][method].responses);
      expect(statuses('post', '/sources')).toEqual([
        '201',
        '400',
        '401',
        '404',
        '413',
        '429',
        '503',
        'default',
      ]);
      expect(statuses('delete', '/admin/keys/{id}')).toEqual([
        '200',
        '401',
        '403',
        '404',
        '429',
        '503',
        'default',
      ]);
      expect(statuses('put', '/files/upload/{id}')).toEqual([
        '200',
        '400',
        '403',
        '413',
        '415',
        '503',
        'default',
      ]);
      expect(statuses('delete', '/files/{id}')).toEqual([
        '200',
        '401',
        '404',
        '409',
        '429',
        '503',
        'default',
      ]);
      expect(statuses('get', '/health')).toEqual(['200', '503', 'default']);
      const notFound = document.paths['/sources/{id}'].get.responses['404'];
      expect(notFound.description).toBe('not_found');
      expect(notFound.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
      expect(document.components.schemas.Error.properties.error.properties.type.enum).toContain('not_found');
      expect(document.paths['/applications'].get.responses['429'].headers['Retry-After']).toBeDefined();
    } finally {
      await daemon.close();
    }
  });

  test('a second daemon on the same data directory is refused with a clear message', async () => {
    const daemon = await startTestDaemon();
    try {
      await expect(runDaemon({ home: daemon.home, port: 0, env: {}, handleSignals: false })).rejects.toThrow(
        /another ckb daemon \(pid \d+\) is already using/,
      );
      expect((await daemon.call('GET', '/health')).status).toBe(200);
    } finally {
      await daemon.close();
    }
  });

  test('a restart keeps every resource and the same key', async () => {
    const daemon = await startTestDaemon();
    try {
      const { body: app } = await daemon.call('POST', '/applications', {
        name: 'kept',
        system_message: 'be brief',
      });
      const { body: source } = await daemon.call('POST', '/sources', {
        application_id: app.id,
        name: 'facts',
        type: 'text',
        content: 'The lighthouse was built in 1871 of granite.',
      });
      await waitForSource(daemon, source.id);
      const { body: reply } = await daemon.call('POST', '/conversations', {
        application_id: app.id,
        message: 'When was the lighthouse built?',
      });
      const before = {
        app: (await daemon.call('GET', `/applications/${app.id}`)).body,
        source: (await daemon.call('GET', `/sources/${source.id}`)).body,
        chunks: (await daemon.call('GET', `/sources/${source.id}/chunks`)).body,
        conversation: (await daemon.call('GET', `/conversations/${reply.conversation_id}`)).body,
      };
      await daemon.restart();
      expect((await daemon.call('GET', `/applications/${app.id}`)).body).toEqual(before.app);
      expect((await daemon.call('GET', `/sources/${source.id}`)).body).toEqual(before.source);
      expect((await daemon.call('GET', `/sources/${source.id}/chunks`)).body).toEqual(before.chunks);
      expect((await daemon.call('GET', `/conversations/${reply.conversation_id}`)).body).toEqual(
        before.conversation,
      );
      const search = await daemon.call('POST', `/applications/${app.id}/search`, {
        query: 'lighthouse granite',
      });
      expect(search.body[0].text).toContain('1871');
    } finally {
      await daemon.close();
    }
  });

  test('an application delete is one transaction; chunks a crash left before their purge go at the next start', async () => {
    const home = await newHome();
    try {
      const daemon = await startTestDaemon({ home });
      const { body: app } = await daemon.call('POST', '/applications', { name: 'deleted' });
      const { body: keep } = await daemon.call('POST', '/applications', { name: 'kept' });
      const sources = [];
      for (const target of [app, keep]) {
        const { body: source } = await daemon.call('POST', '/sources', {
          application_id: target.id,
          name: 'doc',
          type: 'text',
          content: `Zanzibar marmalade recipe for ${target.name}.`,
        });
        await waitForSource(daemon, source.id);
        sources.push(source);
        await daemon.call('POST', '/conversations', { application_id: target.id, message: 'marmalade?' });
      }
      await daemon.close();

      // What a crash right after the delete's commit leaves: its purge row, and its chunks still in LanceDB.
      const database = await openHomeDatabase(home);
      await database.transaction(async (trx) => {
        await trx.deleteFrom('applications').where('id', '=', app.id).execute();
        await trx
          .insertInto('chunk_purges')
          .values({
            id: 'purge_01JD0000000000000000000000',
            application_id: app.id,
            source_id: null,
            passes: 0,
            run_after: 0,
            created_at: '',
          })
          .execute();
      });
      await database.close();
      expect((await readStorage(home)).chunksBySource.has(sources[0].id)).toBe(true);

      await daemon.restart();
      expect((await daemon.call('GET', `/applications/${app.id}`)).status).toBe(404);
      expect((await daemon.call('GET', `/sources/${sources[0].id}`)).status).toBe(404);
      const conversations = (await daemon.call('GET', '/conversations')).body;
      expect(conversations.map((c: { application_id: string }) => c.application_id)).toEqual([keep.id]);
      expect((await daemon.call('GET', '/sources')).body.map((s: { id: string }) => s.id)).toEqual([
        sources[1].id,
      ]);
      const hits = (
        await daemon.call('POST', `/applications/${keep.id}/search`, { query: 'Zanzibar marmalade' })
      ).body;
      expect(hits).toHaveLength(1);
      await daemon.close();

      const storage = await readStorage(home);
      expect(storageProblems(storage)).toEqual([]);
      expect(storage.chunksBySource.has(sources[0].id)).toBe(false);
      // Its purge ran at the start; it stays for a second pass a couple of minutes on (store/purges.ts).
      expect(storage.records.get('chunk_purges')).toMatchObject([{ application_id: app.id, passes: 1 }]);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });

  test('structured logs with request ids go to $CKB_HOME/logs/daemon.log', async () => {
    const home = await newHome();
    const daemon = await startTestDaemon({ home });
    try {
      const response = await daemon.call('GET', '/applications');
      const requestId = response.headers.get('x-request-id');
      expect(requestId).toMatch(/^[0-9a-f]{12}$/);
      await daemon.close();
      const lines = (await readFile(join(daemon.home, 'logs', 'daemon.log'), 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(lines.some((line) => line.request_id === requestId && line.status === 200)).toBe(true);
      expect(JSON.stringify(lines)).not.toContain(daemon.apiKey);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
