import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestDaemon, type TestDaemon, waitForSource } from '../support/daemon.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../support/fake-openai.ts';
import { serve } from '../support/http-server.ts';
import { prose } from '../support/prose.ts';
import { type RunningServer, startStaticServer } from '../support/static-server.ts';

/** A page of a few paragraphs, so that each page is a few chunks. */
function page(title: string, body: string, links: string[] = []): string {
  const anchors = links.map((link) => `<li><a href="${link}">${link}</a></li>`).join('');
  return `<html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body
    .split('\n\n')
    .map((paragraph) => `<p>${paragraph}</p>`)
    .join('')}<ul>${anchors}</ul></main></body></html>`;
}

const SITE: Record<string, string> = {
  'index.html': page('Harbour guide', prose(1, 6), ['/tides.html', '/lights.html', '/charts.html']),
  'tides.html': page('Tides', prose(2, 6)),
  'lights.html': page('Lights', prose(3, 6)),
  'charts.html': page('Charts', prose(4, 6)),
};

let daemon: TestDaemon;
let vendor: FakeOpenAI;
let folder: string;
let site: RunningServer;
let appId: string;
const edits = new Map<string, string | number>();

beforeAll(async () => {
  vendor = await startFakeOpenAI({ embeddingDimensions: 32 });
  daemon = await startTestDaemon({
    config: { embeddings: { base_url: vendor.baseUrl, model: 'fake-embedding', api_key_env: 'FAKE_KEY' } },
    env: { FAKE_KEY: 'sk-fake' },
  });
  folder = await mkdtemp(join(tmpdir(), 'ckb-site-'));
  for (const [name, html] of Object.entries(SITE)) await writeFile(join(folder, name), html);
  site = await startStaticServer({ root: folder, edits });
  appId = (await daemon.call('POST', '/applications', { name: 'sync' })).body.id;
});
afterAll(async () => {
  await daemon.close();
  await vendor.close();
  await site.close();
  await rm(folder, { recursive: true, force: true });
});

/** Texts sent to the embedder since the last call: what an operation embedded. */
let seen = 0;
function embeddedSinceLastLook(): string[] {
  const requests = vendor.requests.slice(seen).filter((request) => request.path.endsWith('/embeddings'));
  seen = vendor.requests.length;
  return requests.flatMap((request) => (request.body as { input: string[] }).input);
}

async function add(body: Record<string, unknown>) {
  const { status, body: created } = await daemon.call('POST', '/sources', {
    application_id: appId,
    name: 'site',
    ...body,
  });
  expect(status, JSON.stringify(created)).toBe(201);
  const source = await waitForSource(daemon, created.id);
  expect(source.embed_status, source.embed_status_message).toBe('COMPLETED');
  embeddedSinceLastLook();
  return source;
}

async function sync(id: string) {
  const { status, body } = await daemon.call('POST', `/sources/${id}/sync`);
  expect(status, JSON.stringify(body)).toBe(200);
  const source = await waitForSource(daemon, id);
  expect(source.embed_status, source.embed_status_message).toBe('COMPLETED');
  return source;
}

async function chunks(id: string): Promise<{ text: string; url?: string; page: number }[]> {
  return (await daemon.call('GET', `/sources/${id}/chunks`)).body;
}

const pageRequests = (from: number) => site.requests.slice(from).filter((path) => path.endsWith('.html'));

describe('POST /sources/{id}/sync', () => {
  test('an unchanged website is asked page by page (304) and neither read nor embedded again', async () => {
    const source = await add({ type: 'website', content: `${site.origin}/index.html` });
    expect(source.pages).toBe(4);
    expect(source.content_hash).toMatch(/^[0-9a-f]{64}$/);
    const before = await chunks(source.id);
    const requested = site.requests.length;
    const synced = await sync(source.id);
    expect(pageRequests(requested).sort()).toEqual(
      ['/index.html', '/tides.html', '/lights.html', '/charts.html'].sort(),
    );
    expect(embeddedSinceLastLook()).toEqual([]);
    expect(synced).toMatchObject({ pages: 4, chunks: source.chunks, content_hash: source.content_hash });
    expect(await chunks(source.id)).toEqual(before);
  });

  test('one page changed: only its changed chunks are embedded; pages gone or no longer linked leave, new ones come', async () => {
    const source = await add({ type: 'website', content: `${site.origin}/index.html`, name: 'evolving' });
    const before = await chunks(source.id);
    edits.set('/tides.html', page('Tides', `${prose(2, 6)}\n\nNeap tides follow the quarter moons.`));
    const changed = await sync(source.id);
    const embedded = embeddedSinceLastLook();
    expect(embedded.length).toBeGreaterThan(0);
    expect(embedded.every((text) => text.includes('Neap tides'))).toBe(true);
    expect(changed.content_hash).not.toBe(source.content_hash);
    const after = await chunks(source.id);
    expect(after.some((chunk) => chunk.text.includes('Neap tides'))).toBe(true);
    expect(after.filter((chunk) => !chunk.url?.endsWith('/tides.html'))).toEqual(
      before.filter((chunk) => !chunk.url?.endsWith('/tides.html')),
    );

    // lights.html is gone (404); charts.html is no longer linked; harbours.html is new.
    edits.set('/lights.html', 404);
    edits.set('/harbours.html', page('Harbours', 'Harbours shelter boats from the open sea.'));
    edits.set(
      '/index.html',
      page('Harbour guide', prose(1, 6), ['/tides.html', '/lights.html', '/harbours.html']),
    );
    const reshaped = await sync(source.id);
    const urls = new Set((await chunks(source.id)).map((chunk) => new URL(chunk.url!).pathname));
    expect([...urls].sort()).toEqual(['/harbours.html', '/index.html', '/tides.html']);
    expect(reshaped.pages).toBe(3);
    const hits = (
      await daemon.call('POST', `/applications/${appId}/search`, { query: 'harbours shelter boats' })
    ).body;
    expect(hits[0]).toMatchObject({ source_id: source.id, url: `${site.origin}/harbours.html` });
    embeddedSinceLastLook();
    edits.clear();
  });

  test('a page that fails for a passing reason keeps its last version, and the source says so', async () => {
    const source = await add({ type: 'website', content: `${site.origin}/index.html`, name: 'flaky' });
    edits.set('/charts.html', 503);
    const synced = await sync(source.id);
    edits.clear();
    expect(synced.pages).toBe(4);
    expect(synced.embed_status_message).toMatch(/charts\.html answered 503.*its last version is kept/);
    expect(embeddedSinceLastLook()).toEqual([]);
  });

  test('a start page that cannot be read fails the sync and the previous version stays in use', async () => {
    const source = await add({ type: 'website', content: `${site.origin}/index.html`, name: 'down' });
    edits.set('/index.html', 503);
    await daemon.call('POST', `/sources/${source.id}/sync`);
    const failed = await waitForSource(daemon, source.id);
    edits.clear();
    expect(failed.embed_status).toBe('FAILED');
    expect(failed.embed_status_message).toMatch(/503.*; the previous version is still in use$/);
    expect(failed.chunks).toBe(source.chunks);
    expect(await chunks(source.id)).toHaveLength(source.chunks);
    expect((await sync(source.id)).embed_status_message).toBe('');
  });

  test('a urls source drops an address that is gone (410) and reads only those that changed', async () => {
    const addresses = ['tides', 'lights', 'charts'].map((name) => `${site.origin}/${name}.html`);
    const source = await add({ type: 'urls', content: addresses, name: 'pages' });
    edits.set('/lights.html', 410);
    edits.set('/charts.html', page('Charts', `${prose(4, 6)}\n\nCharts mark every reef.`));
    const synced = await sync(source.id);
    edits.clear();
    const embedded = embeddedSinceLastLook();
    expect(embedded.length).toBeGreaterThan(0);
    expect(embedded.every((text) => text.includes('reef'))).toBe(true);
    expect(synced.pages).toBe(2);
    expect(synced.embed_status_message).toMatch(/410/);
    expect(new Set((await chunks(source.id)).map((chunk) => chunk.page))).toEqual(new Set([1, 3]));
  });

  test('a page served again without validators, unchanged, is not embedded again', async () => {
    let body = page('Plain', prose(7, 4));
    const plain = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(body);
    });
    try {
      const source = await add({ type: 'url', content: `${plain.origin}/plain.html`, name: 'plain' });
      const synced = await sync(source.id);
      expect(embeddedSinceLastLook()).toEqual([]);
      expect(synced.content_hash).toBe(source.content_hash);
      body = page('Plain', `${prose(7, 4)}\n\nA new closing line about lighthouses.`);
      const changed = await sync(source.id);
      expect(changed.content_hash).not.toBe(source.content_hash);
      expect(embeddedSinceLastLook().every((text) => text.includes('lighthouses'))).toBe(true);
    } finally {
      await plain.close();
    }
  });

  test('PUT of new addresses reads them, and keeps what the common ones had', async () => {
    const first = ['tides', 'lights'].map((name) => `${site.origin}/${name}.html`);
    const source = await add({ type: 'urls', content: first, name: 'moving' });
    const requested = site.requests.length;
    const { body } = await daemon.call('PUT', `/sources/${source.id}`, {
      content: [first[1], `${site.origin}/charts.html`],
    });
    expect(body).toMatchObject({ embed_status: 'PENDING', content_hash: null });
    const after = await waitForSource(daemon, source.id);
    expect(after).toMatchObject({ embed_status: 'COMPLETED', pages: 2 });
    expect(pageRequests(requested).sort()).toEqual(['/charts.html', '/lights.html']);
    // lights.html moved from page 2 to page 1: its chunks are the same text, not embedded again.
    const embedded = embeddedSinceLastLook();
    expect(embedded.some((text) => text.includes('Section 3.'))).toBe(false);
    expect(embedded.some((text) => text.includes('Section 4.'))).toBe(true);
    const urls = (await chunks(source.id)).map((chunk) => new URL(chunk.url!).pathname);
    expect(new Set(urls)).toEqual(new Set(['/lights.html', '/charts.html']));
  });

  test('a sync asked while one runs or waits queues nothing more; the log counts what a sync did', async () => {
    const source = await add({ type: 'website', content: `${site.origin}/index.html`, name: 'twice' });
    const [first, second] = await Promise.all([
      daemon.call('POST', `/sources/${source.id}/sync`),
      daemon.call('POST', `/sources/${source.id}/sync`),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    await waitForSource(daemon, source.id);
    await daemon.daemon.services.ingestion.idle();
    const log = await waitForLog(daemon.home, source.id);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      unchanged: true,
      chunks_embedded: 0,
      web_pages: 4,
      pages_not_modified: 4,
    });
  });
});

/** The daemon's `source refreshed` lines for a source, once the log has been written. */
async function waitForLog(home: string, sourceId: string): Promise<any[]> {
  for (let attempt = 0; ; attempt++) {
    const text = await readFile(join(home, 'logs', 'daemon.log'), 'utf8').catch(() => '');
    const lines = text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .filter((line) => line.message === 'source refreshed' && line.source_id === sourceId);
    if (lines.length > 0 || attempt === 20) return lines;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
