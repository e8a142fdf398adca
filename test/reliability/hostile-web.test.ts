import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestDaemon, type TestDaemon, waitForSource } from '../support/daemon.ts';
import { type RunningServer, startServer } from '../support/static-server.ts';
import { giantHtml } from './hostile-documents.ts';

let hostile: RunningServer;
let daemon: TestDaemon;
let guarded: TestDaemon;

const PAGE = '<html><body><main><h1>Tide tables</h1><p>High water at dawn and dusk.</p></main></body></html>';

beforeAll(async () => {
  hostile = await startServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    const hop = Number(url.searchParams.get('hop') ?? 0);
    switch (url.pathname) {
      case '/loop-a':
        return response.writeHead(302, { location: '/loop-b' }).end();
      case '/loop-b':
        return response.writeHead(302, { location: '/loop-a' }).end();
      case '/chain':
        return response.writeHead(302, { location: `/chain?hop=${hop + 1}` }).end();
      case '/to-file':
        return response.writeHead(302, { location: 'file:///etc/passwd' }).end();
      case '/endless': {
        response.writeHead(200, { 'content-type': 'text/html' });
        const block = `<p>${'endless '.repeat(8_000)}</p>`;
        const pump = () => {
          while (response.write(block)) {}
        };
        response.on('drain', pump);
        response.write('<html><body>');
        return pump();
      }
      case '/declared-huge':
        response.writeHead(200, { 'content-type': 'text/html', 'content-length': String(10 * 1024 ** 3) });
        return response.write('<html><body>');
      case '/giant-dom':
        return response.writeHead(200, { 'content-type': 'text/html' }).end(giantHtml(40_000));
      case '/bad-encoding':
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return response.end(
          Buffer.concat([
            Buffer.from('<html><body><p>caf'),
            Buffer.from([0xe9, 0xff, 0xc0, 0x80]),
            Buffer.from(' au lait</p></body></html>'),
          ]),
        );
      case '/bogus-charset':
        return response.writeHead(200, { 'content-type': 'text/html; charset=x-no-such-charset' }).end(PAGE);
      default:
        return response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    }
  });
  daemon = await startTestDaemon({ config: { block_private_addresses: false } });
  guarded = await startTestDaemon({ config: { block_private_addresses: true } });
});

afterAll(async () => {
  await daemon.close();
  await guarded.close();
  await hostile.close();
});

async function ingest(test: TestDaemon, content: string | string[]): Promise<any> {
  const application = (await test.call('POST', '/applications', { name: 'web' })).body.id;
  const { status, body } = await test.call('POST', '/sources', {
    application_id: application,
    type: Array.isArray(content) ? 'urls' : 'url',
    name: 'page',
    content,
  });
  expect(status).toBe(201);
  return waitForSource(test, body.id, 45_000);
}

describe('hostile pages end FAILED with a message a user can act on', () => {
  const cases: [string, RegExp][] = [
    ['/loop-a', /loop/],
    ['/chain', /redirected more than \d+ times/],
    ['/to-file', /not an http\(s\) address/],
    ['/endless', /larger than/],
    ['/declared-huge', /larger than/],
  ];
  for (const [path, message] of cases) {
    test(path, async () => {
      const started = performance.now();
      const source = await ingest(daemon, `${hostile.origin}${path}`);
      expect(source.embed_status).toBe('FAILED');
      expect(source.embed_status_message).toMatch(message);
      expect(performance.now() - started).toBeLessThan(30_000);
      expect((await daemon.call('GET', '/health')).status).toBe(200);
    });
  }

  test('a giant DOM and broken encodings are read or refused, never crash the daemon', async () => {
    for (const path of ['/giant-dom', '/bad-encoding', '/bogus-charset']) {
      const source = await ingest(daemon, `${hostile.origin}${path}`);
      expect(['COMPLETED', 'FAILED'], path).toContain(source.embed_status);
      if (source.embed_status === 'FAILED')
        expect(source.embed_status_message.length, path).toBeGreaterThan(10);
    }
    const readable = await ingest(daemon, `${hostile.origin}/bad-encoding`);
    if (readable.embed_status === 'COMPLETED') {
      const chunks = (await daemon.call('GET', `/sources/${readable.id}/chunks`)).body;
      expect(chunks[0].text).toContain('au lait');
    }
  });
});

describe('with the SSRF guard on, private, loopback, link-local and metadata addresses are refused', () => {
  test('every spelling of a private address, checked after DNS', async () => {
    const port = new URL(hostile.origin).port;
    const before = hostile.requests.length;
    const addresses = [
      `http://127.0.0.1:${port}/`,
      `http://localhost:${port}/`,
      `http://[::1]:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://0x7f000001:${port}/`,
      `http://2130706433:${port}/`,
      `http://127.1:${port}/`,
      `http://0.0.0.0:${port}/`,
      'http://169.254.169.254/latest/meta-data/',
      'http://[fe80::1]/',
      'http://10.0.0.1/',
      'http://192.168.1.1/',
      'http://172.16.0.1/',
      'http://100.64.0.1/',
      `http://localtest.me:${port}/`,
    ];
    for (const address of addresses) {
      const source = await ingest(guarded, address);
      expect(source.embed_status, address).toBe('FAILED');
      expect(source.embed_status_message.length, address).toBeGreaterThan(10);
    }
    const website = (await guarded.call('POST', '/applications', { name: 'crawl' })).body.id;
    const crawl = await guarded.call('POST', '/sources', {
      application_id: website,
      type: 'website',
      name: 'site',
      content: `http://127.0.0.1:${port}/`,
    });
    expect((await waitForSource(guarded, crawl.body.id)).embed_status).toBe('FAILED');
    expect(hostile.requests.length, 'the guarded daemon never reached the loopback server').toBe(before);
  }, 60_000);
});
