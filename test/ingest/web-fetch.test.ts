import type { ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReaders } from '../../daemon/ingest/readers.ts';
import { isPublicAddress } from '../../daemon/ingest/web/address-guard.ts';
import { FetchError, fetchDocument, fetchPages } from '../../daemon/ingest/web/index.ts';
import { buildPdf } from '../support/fixtures-documents.ts';
import { type RunningServer, startServer } from '../support/static-server.ts';

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>${body}</p></main></body></html>`;

function html(
  response: ServerResponse,
  body: string | Buffer,
  type = 'text/html; charset=utf-8',
  status = 200,
) {
  response.writeHead(status, { 'content-type': type });
  response.end(body);
}

/** Writes `chunk` every `intervalMs` until the client leaves or `limit` chunks were sent. */
function drip(response: ServerResponse, chunk: Buffer, intervalMs: number, limit: number) {
  response.writeHead(200, { 'content-type': 'text/html' });
  let sent = 0;
  const timer = setInterval(() => {
    if (response.destroyed || sent++ >= limit) {
      clearInterval(timer);
      response.end();
      return;
    }
    response.write(chunk);
  }, intervalMs);
  response.on('close', () => clearInterval(timer));
}

const readers = createReaders();
let server: RunningServer;
let pdf: Uint8Array;
const drips = { closedEarly: 0 };

beforeAll(async () => {
  pdf = await buildPdf(['The quarterly figures show a rise in turnip exports.']);
  server = await startServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const hops = Number(url.searchParams.get('hops') ?? 0);
    switch (url.pathname) {
      case '/article.html':
        return html(response, page('Harbour notes', 'The lighthouse keeper counts gulls every morning.'));
      case '/chain':
        if (hops > 0) {
          response.writeHead(302, { location: `/chain?hops=${hops - 1}` });
          return response.end();
        }
        return html(response, page('End of the chain', 'You have reached the end of the redirect chain.'));
      case '/loop-a':
        response.writeHead(301, { location: '/loop-b' });
        return response.end();
      case '/loop-b':
        response.writeHead(301, { location: '/loop-a' });
        return response.end();
      case '/slow':
        return drip(response, Buffer.from('<p>a</p>'), 100, 100);
      case '/endless': {
        response.on('close', () => drips.closedEarly++);
        return drip(response, Buffer.alloc(64 * 1024, 'x'), 1, 10_000);
      }
      case '/latin1':
        return html(
          response,
          Buffer.from(page('Café', 'Crème brûlée à la façon de grand-mère, naïve et déçue.'), 'latin1'),
          'text/html; charset=ISO-8859-1',
        );
      case '/meta-charset':
        return html(
          response,
          Buffer.from(
            `<html><head><meta charset="windows-1252"><title>Menu</title></head><body><p>Entrée du jour: pâté.</p></body></html>`,
            'latin1',
          ),
          'text/html',
        );
      case '/user-agent':
        return html(response, page('Visitor', `You are ${request.headers['user-agent']}.`));
      case '/utf16':
        return html(
          response,
          Buffer.concat([
            Buffer.from([0xff, 0xfe]),
            Buffer.from(page('Ünïcode', 'Zoë’s naïve café.'), 'utf16le'),
          ]),
          'text/html; charset=iso-8859-1',
        );
      case '/notes.txt':
        return html(response, 'Plain notes: the ferry leaves at nine.\n', 'text/plain; charset=utf-8');
      case '/report.pdf':
        return html(response, Buffer.from(pdf), 'application/pdf');
      case '/download':
        // No extension in the address: the Content-Type alone says it is a PDF.
        return html(response, Buffer.from(pdf), 'application/pdf');
      case '/octet/report.pdf':
        return html(response, Buffer.from(pdf), 'application/octet-stream');
      case '/picture.png':
        return html(response, Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'image/png');
      case '/gzipped':
        response.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
        return response.end(gzipSync(page('Compressed', 'This page travelled gzip-compressed.')));
      default:
        return html(response, page('Not Found', 'Nothing here.'), 'text/html', 404);
    }
  });
});

afterAll(() => Promise.all([server.close(), readers.close()]));

async function failure(promise: Promise<unknown>): Promise<FetchError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(FetchError);
  return error as FetchError;
}

describe('fetchDocument', () => {
  it('reads an HTML page as one page with its url and title', async () => {
    const document = await fetchDocument(`${server.origin}/article.html`, { readers });
    expect(document.title).toBe('Harbour notes');
    expect(document.pages).toHaveLength(1);
    expect(document.pages[0]).toMatchObject({
      page: 1,
      url: `${server.origin}/article.html`,
      title: 'Harbour notes',
    });
    expect(document.pages[0]?.text).toContain('The lighthouse keeper counts gulls every morning.');
  });

  it('follows a chain of 5 redirects and refuses a 6th', async () => {
    const document = await fetchDocument(`${server.origin}/chain?hops=5`, { readers });
    expect(document.pages[0]?.url).toBe(`${server.origin}/chain?hops=0`);
    expect(document.pages[0]?.text).toContain('end of the redirect chain');
    const error = await failure(fetchDocument(`${server.origin}/chain?hops=6`, { readers }));
    expect(error.message).toBe(
      `${server.origin}/chain?hops=6 redirected more than 5 times (last to ${server.origin}/chain?hops=0)`,
    );
  });

  it('names a redirect loop', async () => {
    const error = await failure(fetchDocument(`${server.origin}/loop-a`, { readers }));
    expect(error.message).toBe(
      `${server.origin}/loop-a redirects in a loop (${server.origin}/loop-a → ${server.origin}/loop-b → ${server.origin}/loop-a)`,
    );
  });

  it('reports an error status in one sentence', async () => {
    const error = await failure(fetchDocument(`${server.origin}/missing`, { readers }));
    expect(error.message).toBe(`${server.origin}/missing answered 404 Not Found`);
    expect(error.status).toBe(404);
  });

  it('gives up on a body that drips slower than the timeout allows', async () => {
    const started = performance.now();
    const error = await failure(fetchDocument(`${server.origin}/slow`, { readers, timeoutMs: 500 }));
    expect(error.message).toBe(`${server.origin}/slow did not finish answering within 500 ms`);
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it('stops reading an endless body at the size cap', async () => {
    const error = await failure(
      fetchDocument(`${server.origin}/endless`, { readers, maxBytes: 1024 * 1024 }),
    );
    expect(error.message).toBe(`${server.origin}/endless is larger than 1 MiB, the size limit`);
    await expect.poll(() => drips.closedEarly).toBe(1);
  });

  it('decodes the charset named by Content-Type or by a meta tag', async () => {
    const latin1 = await fetchDocument(`${server.origin}/latin1`, { readers });
    expect(latin1.title).toBe('Café');
    expect(latin1.pages[0]?.text).toContain('Crème brûlée à la façon de grand-mère, naïve et déçue.');
    const meta = await fetchDocument(`${server.origin}/meta-charset`, { readers });
    expect(meta.pages[0]?.text).toContain('Entrée du jour: pâté.');
  });

  it('lets a byte-order mark override the declared charset', async () => {
    const document = await fetchDocument(`${server.origin}/utf16`, { readers });
    expect(document.title).toBe('Ünïcode');
    expect(document.pages[0]?.text).toContain('Zoë’s naïve café.');
  });

  it('introduces itself with a clear User-Agent', async () => {
    const document = await fetchDocument(`${server.origin}/user-agent`, { readers });
    expect(document.pages[0]?.text).toContain('You are ckb/0.1 (+local knowledge base).');
  });

  it('decompresses a gzip-encoded page', async () => {
    const document = await fetchDocument(`${server.origin}/gzipped`, { readers });
    expect(document.pages[0]?.text).toContain('This page travelled gzip-compressed.');
  });

  it('reads a .txt address as a text file', async () => {
    const document = await fetchDocument(`${server.origin}/notes.txt`, { readers });
    expect(document.pages.map((entry) => entry.text).join('\n')).toContain(
      'Plain notes: the ferry leaves at nine.',
    );
    expect(document.pages[0]?.url).toBe(`${server.origin}/notes.txt`);
  });

  it('reads a PDF by extension or by Content-Type', async () => {
    for (const path of ['/report.pdf', '/download', '/octet/report.pdf']) {
      const document = await fetchDocument(`${server.origin}${path}`, { readers });
      expect(document.pages[0]?.text).toContain('The quarterly figures show a rise in turnip exports.');
      expect(document.pages[0]?.url).toBe(`${server.origin}${path}`);
    }
  });

  it('refuses a type it cannot read', async () => {
    const error = await failure(fetchDocument(`${server.origin}/picture.png`, { readers }));
    expect(error.message).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/picture\.png is image\/png, which ckb cannot read/,
    );
  });

  it('refuses addresses that are not http(s)', async () => {
    expect((await failure(fetchDocument('ftp://example.com/file.txt', { readers }))).message).toBe(
      'ftp://example.com/file.txt is not an http(s) address',
    );
    expect((await failure(fetchDocument('not a url', { readers }))).message).toBe(
      'not a url is not a valid web address',
    );
  });

  it('rejects with the abort reason when the caller aborts', async () => {
    const controller = new AbortController();
    const pending = fetchDocument(`${server.origin}/slow`, { readers, signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    const error = await pending.then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).not.toBeInstanceOf(FetchError);
    expect((error as Error).name).toBe('AbortError');
  });
});

describe('fetchPages', () => {
  it('numbers pages by their position in the list and reports failing addresses', async () => {
    const urls = [`${server.origin}/article.html`, `${server.origin}/missing`, `${server.origin}/report.pdf`];
    const { document, failures } = await fetchPages(urls, { readers });
    expect(document.pages.map((entry) => [entry.page, entry.url])).toEqual([
      [1, urls[0]],
      [3, urls[2]],
    ]);
    expect(document.pages[1]?.text).toContain('turnip exports');
    expect(failures).toEqual([{ url: urls[1], message: `${urls[1]} answered 404 Not Found` }]);
  });

  it('fails when every address fails', async () => {
    const error = await failure(
      fetchPages([`${server.origin}/missing`, `${server.origin}/loop-a`], { readers }),
    );
    expect(error.message).toBe(
      `none of the 2 addresses could be read; the first failure: ${server.origin}/missing answered 404 Not Found`,
    );
  });
});

describe('private address guard', () => {
  it('refuses loopback by IP and by name, before any request reaches the server', async () => {
    const before = server.requests.length;
    const port = new URL(server.origin).port;
    const byAddress = await failure(
      fetchDocument(`${server.origin}/article.html`, { readers, blockPrivateAddresses: true }),
    );
    expect(byAddress.message).toBe(
      '127.0.0.1 is not a public internet address, and this daemon refuses to fetch private addresses',
    );
    const byName = await failure(
      fetchDocument(`http://localhost:${port}/article.html`, { readers, blockPrivateAddresses: true }),
    );
    expect(byName.message).toMatch(
      /^localhost resolves to (127\.0\.0\.1|::1), which is not a public internet address/,
    );
    const ipv6 = await failure(
      fetchDocument(`http://[::1]:${port}/`, { readers, blockPrivateAddresses: true }),
    );
    expect(ipv6.message).toMatch(/^::1 is not a public internet address/);
    expect(server.requests.length).toBe(before);
  });

  it('classifies addresses', () => {
    const blocked = [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b::10.0.0.1',
      '64:ff9b::7f00:1',
      // IPv4-compatible and IPv4-translated forms of loopback and private addresses.
      '::127.0.0.1',
      '::7f00:1',
      '::ffff:0:192.168.0.1',
      // 6to4 (2002::/16) of loopback, private and metadata addresses: the IPv4 sits in the second and third groups.
      '2002:7f00:1::',
      '2002:7f00:0001:0:0:0:0:1',
      '2002:a00:1::1',
      '2002:c0a8:101::',
      '2002:a9fe:a9fe::1',
      '2002:0:0::',
      // Teredo: a server or client (inverted) address that is private.
      '2001:0:a00:1::1',
      '2001:0:4136:e378:8000:63bf:80ff:fffe',
      '[2002:7f00:1::1]',
      '2001:db8::1',
      'ff02::1',
      'not-an-ip',
    ];
    const allowed = [
      '8.8.8.8',
      '1.1.1.1',
      '172.32.0.1',
      '93.184.216.34',
      '2606:4700:4700::1111',
      '2a00:1450::1',
      // 6to4 of a public address is judged by that address.
      '2002:808:808::1',
    ];
    expect(blocked.filter(isPublicAddress)).toEqual([]);
    expect(allowed.filter((address) => !isPublicAddress(address))).toEqual([]);
  });
});
