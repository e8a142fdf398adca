import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestDaemon, type TestDaemon, waitForSource } from '../support/daemon.ts';
import { serve } from '../support/http-server.ts';

let daemon: TestDaemon;
let site: Awaited<ReturnType<typeof serve>>;
let appId: string;

const PAGES: Record<string, string> = {
  '/a.html':
    '<html><head><title>Alpha</title></head><body><main><h1>Alpha</h1><p>The albatross nests on Midway Atoll every winter season.</p></main></body></html>',
  '/b.html':
    '<html><head><title>Beta</title></head><body><main><h1>Beta</h1><p>Basalt columns form when thick lava cools slowly and cracks.</p></main></body></html>',
};

beforeAll(async () => {
  daemon = await startTestDaemon();
  site = await serve((request, response) => {
    const page = PAGES[request.url ?? ''];
    response.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    response.end(page ?? 'missing');
  });
  appId = (await daemon.call('POST', '/applications', { name: 'sources' })).body.id;
});
afterAll(async () => {
  await daemon.close();
  await site.close();
});

async function addSource(body: Record<string, unknown>) {
  const response = await daemon.call('POST', '/sources', { application_id: appId, name: 'src', ...body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  expect(response.body.embed_status).toBe('PENDING');
  return waitForSource(daemon, response.body.id);
}

async function search(query: string, application = appId) {
  return (await daemon.call('POST', `/applications/${application}/search`, { query, limit: 5 })).body;
}

describe('sources', () => {
  test('a text source completes with counts and searchable chunks', async () => {
    const source = await addSource({
      name: 'poem',
      type: 'text',
      content: 'Glaciers carve fjords over many thousands of years.',
    });
    expect(source).toMatchObject({
      embed_status: 'COMPLETED',
      embed_status_message: '',
      chunks: 1,
      pages: 1,
      characters: 51,
    });
    const chunks = (await daemon.call('GET', `/sources/${source.id}/chunks`)).body;
    expect(chunks).toEqual([
      { index: 0, page: 1, text: 'Glaciers carve fjords over many thousands of years.' },
    ]);
    const hits = await search('how are fjords carved');
    expect(hits[0]).toMatchObject({ source: 'poem', source_id: source.id, page: 1 });
    expect(hits[0].score).toBeGreaterThan(0);
    expect(hits[0].score).toBeLessThanOrEqual(1);
  });

  test('an uploaded file source is extracted by its extension', async () => {
    const fileId = await daemon.upload(
      'guide.md',
      '# Guide\n\n## Setup\n\nInstall the widget with a torque wrench.\n',
    );
    const source = await addSource({ name: 'guide.md', type: 'file', content: fileId });
    expect(source.embed_status).toBe('COMPLETED');
    const chunks = (await daemon.call('GET', `/sources/${source.id}/chunks`)).body;
    expect(chunks.map((chunk: { text: string }) => chunk.text).join(' ')).toContain('torque wrench');
  });

  test('url and urls sources keep each page and its address', async () => {
    const single = await addSource({ name: 'alpha', type: 'url', content: `${site.origin}/a.html` });
    expect(single.embed_status).toBe('COMPLETED');
    const many = await addSource({
      name: 'pages',
      type: 'urls',
      content: [`${site.origin}/a.html`, `${site.origin}/b.html`],
    });
    expect(many).toMatchObject({ embed_status: 'COMPLETED', pages: 2 });
    const chunks = (await daemon.call('GET', `/sources/${many.id}/chunks`)).body;
    const basalt = chunks.find((chunk: { text: string }) => chunk.text.includes('Basalt'));
    expect(basalt).toMatchObject({ page: 2, url: `${site.origin}/b.html` });
    const hit = (await search('basalt columns lava')).find(
      (result: { source_id: string }) => result.source_id === many.id,
    );
    expect(hit).toMatchObject({ page: 2, url: `${site.origin}/b.html` });
  });

  test('a url that cannot be read ends FAILED with a message a user can act on', async () => {
    const source = await addSource({ name: 'gone', type: 'url', content: `${site.origin}/missing.html` });
    expect(source.embed_status).toBe('FAILED');
    expect(source.embed_status_message).toMatch(/404/);
    expect(source.chunks).toBe(0);
    expect((await daemon.call('GET', '/health')).status).toBe(200);
  });

  test('a corrupt file ends FAILED and the daemon stays healthy', async () => {
    const fileId = await daemon.upload('broken.pdf', '%PDF-1.7\nthis is not really a pdf');
    const source = await addSource({ name: 'broken.pdf', type: 'file', content: fileId });
    expect(source.embed_status).toBe('FAILED');
    expect(source.embed_status_message).toContain('broken.pdf');
    expect((await daemon.call('GET', '/health')).status).toBe(200);
  });

  test.each([
    [{ type: 'video', content: 'x' }, 'type'],
    [{ type: 'text' }, 'content'],
    [{ type: 'text', content: '' }, 'content'],
    [{ type: 'text', content: ['a'] }, 'content'],
    [{ type: 'url', content: 'ftp://example.com/file' }, 'content'],
    [{ type: 'url', content: 'not a url' }, 'content'],
    [{ type: 'urls', content: [] }, 'content'],
    [{ type: 'urls', content: 'http://example.com' }, 'content'],
    [{ type: 'file', content: 'report.pdf' }, 'content'],
    [{ type: 'text', content: 'x', name: '' }, 'name'],
  ])('invalid source %j → 400 naming %s, nothing created', async (body, param) => {
    const before = (await daemon.call('GET', '/sources')).body.length;
    const response = await daemon.call('POST', '/sources', { application_id: appId, name: 'n', ...body });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ type: 'invalid_request', param });
    expect((await daemon.call('GET', '/sources')).body).toHaveLength(before);
  });

  test('unknown application or file id is a 404', async () => {
    const noApp = await daemon.call('POST', '/sources', {
      application_id: 'app_01ABCDEFGHJKMNPQRSTVWXYZ00',
      name: 'n',
      type: 'text',
      content: 'x',
    });
    expect(noApp.status).toBe(404);
    expect(noApp.body.error.param).toBe('application_id');
    const noFile = await daemon.call('POST', '/sources', {
      application_id: appId,
      name: 'n',
      type: 'file',
      content: 'file_01ABCDEFGHJKMNPQRSTVWXYZ00',
    });
    expect(noFile.status).toBe(404);
    expect(noFile.body.error.param).toBe('content');
  });

  test('lists return content null; get returns content as given; filter by application', async () => {
    const { body: other } = await daemon.call('POST', '/applications', { name: 'other' });
    const created = await daemon.call('POST', '/sources', {
      application_id: other.id,
      name: 'o',
      type: 'text',
      content: 'Ostriches cannot fly.',
    });
    await waitForSource(daemon, created.body.id);
    const all = (await daemon.call('GET', '/sources')).body;
    expect(all.every((source: { content: unknown }) => source.content === null)).toBe(true);
    const filtered = (await daemon.call('GET', `/sources?application_id=${other.id}`)).body;
    expect(filtered.map((source: { id: string }) => source.id)).toEqual([created.body.id]);
    expect((await daemon.call('GET', `/applications/${other.id}/sources`)).body).toEqual(filtered);
    expect((await daemon.call('GET', `/sources/${created.body.id}`)).body.content).toBe(
      'Ostriches cannot fly.',
    );
    expect((await daemon.call('GET', '/sources?application_id=app_01ABCDEFGHJKMNPQRSTVWXYZ00')).status).toBe(
      404,
    );
  });

  test('?status= lists only the sources in that state, with the other filters and paging', async () => {
    const { body: app } = await daemon.call('POST', '/applications', { name: 'statuses' });
    const add = async (type: string, content: string) =>
      (await daemon.call('POST', '/sources', { application_id: app.id, name: content, type, content })).body
        .id;
    const good = [await add('text', 'Penguins swim.'), await add('text', 'Puffins dive.')];
    const bad = await add('url', `${site.origin}/missing`);
    for (const id of [...good, bad]) await waitForSource(daemon, id);
    const ids = async (query: string) =>
      (await daemon.call('GET', `/sources?application_id=${app.id}&${query}`)).body.map(
        (source: { id: string }) => source.id,
      );
    expect(await ids('status=FAILED')).toEqual([bad]);
    expect(await ids('status=COMPLETED')).toEqual(good.toReversed());
    expect(await ids('status=COMPLETED&limit=1')).toEqual([good[1]]);
    expect(await ids('status=PENDING')).toEqual([]);
    const wrong = await daemon.call('GET', '/sources?status=done');
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatchObject({
      param: 'status',
      message: expect.stringMatching(/PENDING, PROCESSING/),
    });
  });

  test('deleting a source removes it from search at once', async () => {
    const source = await addSource({
      name: 'temp',
      type: 'text',
      content: 'Quokkas live on Rottnest Island near Perth.',
    });
    expect(
      (await search('quokkas rottnest')).some((hit: { source_id: string }) => hit.source_id === source.id),
    ).toBe(true);
    expect((await daemon.call('DELETE', `/sources/${source.id}`)).body).toEqual({
      id: source.id,
      deleted: true,
    });
    expect(
      (await search('quokkas rottnest')).some((hit: { source_id: string }) => hit.source_id === source.id),
    ).toBe(false);
    expect((await daemon.call('GET', `/sources/${source.id}`)).status).toBe(404);
    expect((await daemon.call('GET', `/sources/${source.id}/chunks`)).status).toBe(404);
  });

  test('clearing an application deletes all its sources and their chunks', async () => {
    const { body: app } = await daemon.call('POST', '/applications', { name: 'to clear' });
    for (const content of ['Narwhal tusks are teeth.', 'Narwhals live in Arctic waters.']) {
      const { body } = await daemon.call('POST', '/sources', {
        application_id: app.id,
        name: 'n',
        type: 'text',
        content,
      });
      await waitForSource(daemon, body.id);
    }
    expect(await search('narwhal', app.id)).toHaveLength(2);
    expect((await daemon.call('DELETE', `/applications/${app.id}/sources`)).body).toEqual({
      application_id: app.id,
      deleted: 2,
    });
    expect((await daemon.call('GET', `/applications/${app.id}/sources`)).body).toEqual([]);
    expect(await search('narwhal', app.id)).toEqual([]);
  });
});
