import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReaders } from '../../daemon/ingest/readers.ts';
import { readAddress } from '../../daemon/ingest/web/fetch.ts';
import { crawlWebsite, fetchPages } from '../../daemon/ingest/web/index.ts';
import { previousFetches } from '../../daemon/ingest/web/previous.ts';
import { type RunningServer, startStaticServer } from '../support/static-server.ts';

const page = (title: string, text: string, links: string[] = []) =>
  `<html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>${text}</p>${links
    .map((link) => `<a href="${link}">${link}</a>`)
    .join(' ')}</main></body></html>`;

const readers = createReaders();
let folder: string;
let site: RunningServer;
const edits = new Map<string, string | number>();

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'ckb-resync-'));
  await writeFile(join(folder, 'index.html'), page('Home', 'The harbour home page.'));
  await writeFile(join(folder, 'a.html'), page('A', 'Anchors hold boats in place.'));
  await writeFile(join(folder, 'b.html'), page('B', 'Buoys mark the channel.'));
  await writeFile(join(folder, 'c.html'), page('C', 'Cleats tie the lines.'));
  const sitemap = join(folder, 'sitemap.xml');
  await writeFile(
    sitemap,
    `<urlset>${['index', 'a', 'b', 'c'].map((name) => `<url><loc>http://{origin}/${name}.html</loc></url>`).join('')}</urlset>`,
  );
  site = await startStaticServer({ root: folder, sitemapFile: sitemap, edits });
});
afterAll(async () => {
  await readers.close();
  await site.close();
  await rm(folder, { recursive: true, force: true });
});

describe('reading web sources again', () => {
  it('a sitemap crawl asked with the last validators gets 304s and rebuilds the same pages', async () => {
    const first = await crawlWebsite(`${site.origin}/index.html`, { html: readers.html });
    expect(first.mode).toBe('sitemap');
    expect(first.pages.map((fetched) => fetched.etag)).toEqual(
      first.pages.map(() => expect.stringMatching(/^"/)),
    );
    edits.set('/b.html', page('B', 'Buoys mark the channel, red to port.'));
    const again = await crawlWebsite(`${site.origin}/index.html`, {
      html: readers.html,
      previous: previousFetches(first.pages),
    });
    edits.clear();
    expect(again.notModified).toBe(3);
    expect(again.document.pages.map((extracted) => extracted.text)).toEqual(
      first.document.pages.map((extracted) =>
        extracted.text.replace('Buoys mark the channel.', 'Buoys mark the channel, red to port.'),
      ),
    );
    expect(again.pages.find((fetched) => fetched.url.endsWith('/b.html'))?.etag).not.toBe(
      first.pages.find((fetched) => fetched.url.endsWith('/b.html'))?.etag,
    );
  });

  it('a list of addresses keeps what is unchanged or failing for now, and drops what is gone', async () => {
    const urls = ['a', 'b', 'c'].map((name) => `${site.origin}/${name}.html`);
    const first = await fetchPages(urls, { readers });
    edits.set('/a.html', 410);
    edits.set('/b.html', 503);
    const again = await fetchPages(urls, { readers, previous: previousFetches(first.pages) });
    edits.clear();
    expect(again.notModified).toBe(1);
    expect(again.failures).toEqual([{ url: urls[0], message: expect.stringContaining('410') }]);
    expect(again.kept).toEqual([{ url: urls[1], message: expect.stringContaining('503') }]);
    expect(again.document.pages.map((extracted) => [extracted.page, extracted.text])).toEqual(
      first.document.pages.slice(1).map((extracted) => [extracted.page, extracted.text]),
    );
    // Every address failing fails the whole read, whatever was kept.
    edits.set('/a.html', 503);
    edits.set('/b.html', 503);
    edits.set('/c.html', 503);
    await expect(fetchPages(urls, { readers, previous: previousFetches(first.pages) })).rejects.toThrow(
      /none of the 3 addresses could be read/,
    );
    edits.clear();
  });

  it('one address unchanged is its last pages, unread', async () => {
    const url = `${site.origin}/c.html`;
    const first = await readAddress(url, { readers });
    const requests = site.requests.length;
    const again = await readAddress(url, { readers, previous: previousFetches(first.pages) });
    expect(again).toEqual({ ...first, notModified: 1 });
    expect(site.requests.slice(requests)).toEqual(['/c.html']);
  });
});
