import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { htmlToPage } from '../../daemon/ingest/extract/index.ts';
import { createHtmlExtractor } from '../../daemon/ingest/web/html-pool.ts';
import { type CrawlResult, crawlWebsite, FetchError } from '../../daemon/ingest/web/index.ts';
import { corpusOrSkip } from '../support/corpus.ts';
import { type RunningServer, startServer, startStaticServer } from '../support/static-server.ts';

const corpus = corpusOrSkip('the crawl of the Sphinx documentation site (site/sphinx-doc)');
const site = resolve(corpus ?? '', 'site');
const root = resolve(site, 'sphinx-doc');
const robotsFile = resolve(site, 'sphinx-doc.robots.txt');
const sitemapFile = resolve(site, 'sphinx-doc.sitemap.xml');

/** The facts of site/README.md: answer phrase and the page that holds it. */
const facts: [string, string][] = [
  [
    'a Python library for cooks and food lovers that creates recipes mixing random ingredients',
    'tutorial/getting-started.html',
  ],
  [
    'a speech recognition toolkit (CMU Sphinx) and a full-text search database (Sphinx search)',
    'usage/installation.html',
  ],
  [
    'rinohtype provides a PDF builder that can be used as a drop-in replacement for the LaTeX builder',
    'faq.html',
  ],
  [
    'Google uses indentation to separate sections, whereas NumPy uses underlines',
    'usage/extensions/napoleon.html',
  ],
  ['Sphinx 4.0 will remove the feature outright', 'internals/release-process.html'],
  [
    'The theme originally used by this documentation. It features a sidebar on the right side.',
    'usage/theming.html',
  ],
  [
    'This module demonstrates documentation as specified by the `Google Python Style Guide`_.',
    'usage/extensions/example_google.html',
  ],
  ['Release 5.3.0 (released Oct 16, 2022)', 'changes.html'],
  [
    'A custom role, directive or other aspect of Sphinx that allows users to modify any aspect of the build process within Sphinx',
    'glossary.html',
  ],
  ['The core developers of Sphinx have write access to the main repository', 'internals/organization.html'],
];
const manPages = ['index', 'sphinx-apidoc', 'sphinx-autogen', 'sphinx-build', 'sphinx-quickstart'].map(
  (name) => `man/${name}.html`,
);
const depthThreeOnly = [
  'usage/extensions/example_google.html',
  'usage/extensions/example_numpy.html',
  '_modules/sphinx/application.html',
];
const unreachableByLinks = [
  'genindex.html',
  'py-modindex.html',
  'search.html',
  'development/tutorials/examples/README.html',
];

// A full crawl spends about 0.1 s of CPU per page in Readability; a busy machine needs the slack.
const crawlTimeoutMs = 240_000;
const html = createHtmlExtractor();
afterAll(() => html.close());

const squash = (text: string) => text.replace(/\s+/g, ' ');
const pathsOf = (result: CrawlResult, origin: string) =>
  result.document.pages.map((page) => (page.url ?? '').slice(origin.length + 1));
const pageRequests = (server: RunningServer) => server.requests.filter((path) => path.endsWith('.html'));

function expectNoDuplicates(result: CrawlResult) {
  const pages = result.document.pages;
  expect(pages.map((page) => page.page)).toEqual(pages.map((_, index) => index + 1));
  expect(new Set(pages.map((page) => page.url)).size).toBe(pages.length);
  expect(new Set(pages.map((page) => page.text)).size).toBe(pages.length);
}

describe.skipIf(corpus === undefined)('crawling the Sphinx documentation site', () => {
  const servers: RunningServer[] = [];
  const serve = async (options: { robots?: boolean; sitemap?: boolean }) => {
    const server = await startStaticServer({
      root,
      ...(options.robots ? { robotsFile } : {}),
      ...(options.sitemap ? { sitemapFile } : {}),
    });
    servers.push(server);
    return server;
  };

  afterAll(() => Promise.all(servers.map((server) => server.close())));

  describe('with robots.txt and sitemap.xml', () => {
    let server: RunningServer;
    let result: CrawlResult;
    const counts: number[] = [];
    let seconds = 0;

    beforeAll(async () => {
      server = await serve({ robots: true, sitemap: true });
      const started = performance.now();
      result = await crawlWebsite(`${server.origin}/`, { html, onPage: (count) => counts.push(count) });
      seconds = (performance.now() - started) / 1000;
      console.info(
        `sitemap crawl: ${result.document.pages.length} pages in ${seconds.toFixed(1)} s, ${(result.document.pages.length / seconds).toFixed(1)} pages/s`,
      );
    }, crawlTimeoutMs);

    it('takes every sitemap page but the ones robots.txt disallows', () => {
      expect(result.mode).toBe('sitemap');
      expect(result.document.pages).toHaveLength(137 - manPages.length);
      expect(pathsOf(result, server.origin)).toEqual(expect.arrayContaining(unreachableByLinks));
      expect(result.failures).toEqual([]);
    });

    it('asks the server a few pages at a time', () => {
      expect(server.maxConcurrent).toBeGreaterThan(1);
      expect(server.maxConcurrent).toBeLessThanOrEqual(4);
    });

    it('never requests a page robots.txt disallows, though the sitemap lists them', () => {
      expect(server.requests.filter((path) => path.startsWith('/man/'))).toEqual([]);
      expect(
        result.skipped.filter((skip) => skip.reason === 'disallowed-by-robots').map((skip) => skip.url),
      ).toEqual(manPages.map((path) => `${server.origin}/${path}`));
    });

    it('keeps one page per content: / and /index.html are the same page', () => {
      expectNoDuplicates(result);
      expect(result.document.pages[0]?.url).toBe(`${server.origin}/`);
      expect(result.skipped).toContainEqual({ url: `${server.origin}/index.html`, reason: 'duplicate' });
    });

    it('finds each fact of the corpus README in its page', () => {
      for (const [phrase, path] of facts) {
        const page = result.document.pages.find((entry) => entry.url === `${server.origin}/${path}`);
        expect(page, path).toBeDefined();
        expect(squash(page?.text ?? ''), path).toContain(phrase);
      }
    });

    it('titles pages and reports progress', () => {
      expect(result.document.pages.every((page) => (page.title ?? '').length > 0)).toBe(true);
      expect(counts).toEqual(result.document.pages.map((page) => page.page));
    });
  });

  describe('following links, with robots.txt and no sitemap', () => {
    let server: RunningServer;
    let result: CrawlResult;

    beforeAll(async () => {
      server = await serve({ robots: true });
      const started = performance.now();
      result = await crawlWebsite(`${server.origin}/index.html`, { html, maxDepth: 3 });
      const seconds = (performance.now() - started) / 1000;
      console.info(
        `link crawl: ${result.document.pages.length} pages in ${seconds.toFixed(1)} s, ${(result.document.pages.length / seconds).toFixed(1)} pages/s`,
      );
    }, crawlTimeoutMs);

    it('reaches the linked pages level by level, as the corpus README counts them', () => {
      expect(result.mode).toBe('links');
      // README: 1 + 42 + 62 + 28 = 133 pages within 3 links; robots.txt removes the 5 /man/ pages.
      expect(result.document.pages).toHaveLength(133 - manPages.length);
      const paths = pathsOf(result, server.origin);
      expect(paths[0]).toBe('index.html');
      // Depth 1 is exactly what index.html links to (42 pages, less man/index.html).
      const startHtml = readFileSync(resolve(root, 'index.html'), 'utf8');
      const linkedFromStart = htmlToPage(startHtml, `${server.origin}/index.html`)
        .links.map((link) => link.slice(server.origin.length + 1))
        .filter((path) => path.endsWith('.html') && path !== 'index.html' && existsSync(resolve(root, path)));
      expect(new Set(linkedFromStart).size).toBe(42);
      expect(new Set(paths.slice(1, 42))).toEqual(
        new Set(linkedFromStart.filter((path) => !manPages.includes(path))),
      );
      // Depth 3 (the last 28 pages) holds the three pages the README names and otherwise `_modules/` pages.
      const depthThree = paths.slice(-28);
      expect(depthThree).toEqual(expect.arrayContaining(depthThreeOnly));
      expect(
        depthThree.filter((path) => !depthThreeOnly.includes(path) && !path.startsWith('_modules/')),
      ).toEqual([]);
      expect(paths.slice(0, -28).filter((path) => depthThreeOnly.includes(path))).toEqual([]);
      expect(paths.filter((path) => unreachableByLinks.includes(path))).toEqual([]);
      expectNoDuplicates(result);
    });

    it('never requests a page robots.txt disallows, though pages link to them', () => {
      expect(server.requests.filter((path) => path.startsWith('/man/'))).toEqual([]);
      expect(new Set(result.skipped.map((skip) => skip.url))).toEqual(
        new Set(manPages.map((path) => `${server.origin}/${path}`)),
      );
    });

    it('reports broken links and never requests assets', () => {
      expect(result.failures).toContainEqual({
        url: `${server.origin}/copyright.html`,
        message: `${server.origin}/copyright.html answered 404 Not Found`,
      });
      expect(
        server.requests.filter((path) => path !== '/robots.txt' && /\.(png|css|js|txt|py)$/.test(path)),
      ).toEqual([]);
    });
  });

  it('stops at the page limit without fetching far beyond it', async () => {
    const server = await serve({});
    const result = await crawlWebsite(`${server.origin}/index.html`, { html, maxPages: 7 });
    expect(result.document.pages).toHaveLength(7);
    expectNoDuplicates(result);
    expect(pageRequests(server).length).toBeLessThanOrEqual(7 + 4);
  });

  it('takes only the start page at depth 0, without reading the sitemap', async () => {
    const server = await serve({ robots: true, sitemap: true });
    const result = await crawlWebsite(`${server.origin}/index.html`, { html, maxDepth: 0 });
    expect(pathsOf(result, server.origin)).toEqual(['index.html']);
    expect(server.requests).toEqual(['/robots.txt', '/index.html']);
  });
});

describe('crawling a small site', () => {
  let server: RunningServer;
  const robots = { status: 404, body: '' };
  const page = (title: string, body: string, head = '') =>
    `<!doctype html><html><head><title>${title}</title>${head}</head><body><h1>${title}</h1><p>${body}</p></body></html>`;
  const pages: Record<string, string> = {
    '/': page(
      'Home',
      `<a href="/a.html">a</a> <a href="/a.html?ref=mail">a again</a> <a href="/b/">b</a> <a href="/b/index.html">b index</a>
       <a href="/c/">c</a> <a href="/c/index.html">c index</a> <a href="/logo.png">logo</a> <a href="/data">data</a>
       <a href="http://example.invalid/elsewhere">elsewhere</a> <a href="/moved">moved</a> <a href="#top">top</a>
       <a href="/deep/1.html">deeper</a>`,
    ),
    '/deep/1.html': page('Depth 1', '<a href="2.html">deeper</a>'),
    '/deep/2.html': page('Depth 2', '<a href="3.html">deeper</a>'),
    '/deep/3.html': page('Depth 3', '<a href="4.html">deeper</a>'),
    '/deep/4.html': page('Depth 4', 'Too deep to be reached.'),
    '/a.html': page('A', 'The alpha page describes the first letter.'),
    '/a.html?ref=mail': page(
      'A',
      'Welcome, mail reader! The alpha page describes the first letter.',
      '<link rel="canonical" href="/a.html">',
    ),
    '/b/': page('B', 'The beta page is served at two addresses.'),
    '/b/index.html': page('B', 'The beta page is served at two addresses.'),
    '/c/': page('C listing', 'The gamma folder lists its files.'),
    '/c/index.html': page('C index', 'The gamma index is a different page.'),
    '/hidden.html': page('Hidden', 'Only the sitemap knows this page.'),
    '/private/secret.html': page('Secret', 'Robots may not read this.'),
  };

  beforeAll(async () => {
    server = await startServer((request, response, origin) => {
      const path = request.url ?? '/';
      const send = (status: number, type: string, body: string | Buffer, headers = {}) => {
        response.writeHead(status, { 'content-type': type, ...headers });
        response.end(body);
      };
      if (path === '/robots.txt')
        return send(robots.status, 'text/plain', robots.body.replaceAll('{origin}', origin));
      if (path === '/moved') return send(301, 'text/html', '', { location: '/a.html' });
      if (path === '/data') return send(200, 'application/json', '{"not":"a page"}');
      if (path === '/sitemaps/index.xml') {
        return send(
          200,
          'application/xml',
          `<?xml version="1.0"?><sitemapindex><sitemap><loc>${origin}/sitemaps/pages.xml.gz</loc></sitemap></sitemapindex>`,
        );
      }
      if (path === '/sitemaps/pages.xml.gz') {
        const locations = [
          `${origin}/a.html`,
          `<![CDATA[${origin}/hidden.html]]>`,
          `${origin}/private/secret.html`,
        ];
        const xml = `<urlset>${locations.map((location) => `<url><loc>${location}</loc></url>`).join('')}<url><loc>http://example.invalid/x.html</loc></url></urlset>`;
        return send(200, 'application/gzip', gzipSync(xml));
      }
      const body = pages[path];
      if (body) return send(200, 'text/html; charset=utf-8', body);
      send(404, 'text/html', page('Not found', 'Nothing here.'));
    });
  });
  afterAll(() => server.close());

  it('de-duplicates by canonical link and by content, and skips non-pages', async () => {
    const result = await crawlWebsite(`${server.origin}/`, { html });
    expect(result.mode).toBe('links');
    expect(pathsOf(result, server.origin)).toEqual([
      '',
      'a.html',
      'b/',
      'c/',
      'c/index.html',
      'deep/1.html',
      'deep/2.html',
      'deep/3.html',
    ]);
    expect(result.skipped).toEqual(
      expect.arrayContaining([
        { url: `${server.origin}/a.html?ref=mail`, reason: 'duplicate' },
        { url: `${server.origin}/b/index.html`, reason: 'duplicate' },
        { url: `${server.origin}/moved`, reason: 'duplicate' },
        { url: `${server.origin}/data`, reason: 'not-html' },
      ]),
    );
    expect(server.requests).not.toContain('/logo.png');
    expect(server.requests.filter((path) => path.includes('elsewhere'))).toEqual([]);
  });

  it('follows links no deeper than maxDepth', async () => {
    const deepPages = async (maxDepth: number) =>
      pathsOf(await crawlWebsite(`${server.origin}/`, { html, maxDepth }), server.origin).filter((path) =>
        path.startsWith('deep/'),
      );
    expect(await deepPages(1)).toEqual(['deep/1.html']);
    expect(await deepPages(2)).toEqual(['deep/1.html', 'deep/2.html']);
    expect(server.requests).not.toContain('/deep/4.html');
  });

  it('reads sitemap index files named by robots.txt, gzipped or not, and applies robots.txt to them', async () => {
    Object.assign(robots, {
      status: 200,
      body: 'User-agent: *\nDisallow: /private/\nSitemap: {origin}/sitemaps/index.xml\n',
    });
    try {
      const result = await crawlWebsite(`${server.origin}/`, { html });
      expect(result.mode).toBe('sitemap');
      expect(pathsOf(result, server.origin)).toEqual(['', 'a.html', 'hidden.html']);
      expect(result.skipped).toContainEqual({
        url: `${server.origin}/private/secret.html`,
        reason: 'disallowed-by-robots',
      });
      expect(server.requests).not.toContain('/private/secret.html');
    } finally {
      Object.assign(robots, { status: 404, body: '' });
    }
  });

  it('stops when robots.txt cannot be read', async () => {
    robots.status = 503;
    try {
      const error = await crawlWebsite(`${server.origin}/`, { html }).catch((reason: unknown) => reason);
      expect(error).toBeInstanceOf(FetchError);
      expect((error as FetchError).message).toBe(
        `${server.origin}/robots.txt answered 503 Service Unavailable, so the site's crawl rules are unknown`,
      );
    } finally {
      robots.status = 404;
    }
  });

  it('moves to the origin the start page redirects to', async () => {
    const entrance = await startServer((_request, response) => {
      response.writeHead(301, { location: `${server.origin}/` });
      response.end();
    });
    try {
      const result = await crawlWebsite(`${entrance.origin}/`, { html, maxDepth: 1 });
      expect(result.document.pages[0]?.url).toBe(`${server.origin}/`);
      expect(pathsOf(result, server.origin)).toContain('a.html');
      expect(entrance.requests).toEqual(['/robots.txt', '/']);
    } finally {
      await entrance.close();
    }
  });

  it('fails when the start page is not a web page', async () => {
    const error = await crawlWebsite(`${server.origin}/data`, { html }).catch((reason: unknown) => reason);
    expect((error as FetchError).message).toBe(
      `${server.origin}/data is not a web page, and a crawl starts from an HTML page`,
    );
  });

  it('fails when the start page cannot be read', async () => {
    const error = await crawlWebsite(`${server.origin}/nowhere.html`, { html }).catch(
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(FetchError);
    expect((error as FetchError).message).toBe(`${server.origin}/nowhere.html answered 404 Not Found`);
  });
});
