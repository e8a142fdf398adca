import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';

export interface RunningServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Every request path received, in order (query strings included). */
  requests: string[];
  /** The most requests that were ever being answered at the same time. */
  readonly maxConcurrent: number;
  close(): Promise<void>;
}

/** Starts a node:http server on an ephemeral loopback port; the handler gets every request. */
export async function startServer(
  handler: (request: IncomingMessage, response: ServerResponse, origin: string) => unknown,
): Promise<RunningServer> {
  const requests: string[] = [];
  const concurrency = { current: 0, max: 0 };
  let origin = '';
  const server: Server = createServer((request, response) => {
    requests.push(request.url ?? '');
    concurrency.current++;
    concurrency.max = Math.max(concurrency.max, concurrency.current);
    response.on('close', () => concurrency.current--);
    Promise.resolve(handler(request, response, origin)).catch((error: unknown) => {
      response.destroy(error instanceof Error ? error : new Error(String(error)));
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    get maxConcurrent() {
      return concurrency.max;
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.xml': 'application/xml',
  '.inv': 'application/octet-stream',
  '.pdf': 'application/pdf',
};

export interface StaticSiteOptions {
  /** The folder to serve. */
  root: string;
  /** Served at `/robots.txt` with `{origin}` replaced by the live origin. */
  robotsFile?: string;
  /** Served at `/sitemap.xml` with `{origin}` replaced by the live origin. */
  sitemapFile?: string;
  /**
   * Changes to the site while it runs, by path (`/faq.html`): a page's new HTML, or a status to answer instead
   * (404, 410, 503). Read at every request, so a test edits the site by editing the map.
   */
  edits?: Map<string, string | number>;
}

/**
 * Serves a folder like a plain web server: `/dir/` → `dir/index.html`, 404 for anything missing. Like most
 * servers it sends an ETag and a Last-Modified date, and answers 304 to a request that still has the page.
 */
export function startStaticServer(options: StaticSiteOptions): Promise<RunningServer> {
  const root = resolve(options.root);
  const generated: Record<string, string | undefined> = {
    '/robots.txt': options.robotsFile,
    '/sitemap.xml': options.sitemapFile,
  };
  return startServer(async (request, response, origin) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', origin).pathname);
    const edit = options.edits?.get(path);
    if (typeof edit === 'number') {
      send(response, edit, 'text/html; charset=utf-8', `<html><body><h1>${edit}</h1></body></html>`);
      return;
    }
    if (edit !== undefined) {
      sendConditional(request, response, 'text/html; charset=utf-8', Buffer.from(edit), EDITED_AT);
      return;
    }
    const generatedFile = generated[path];
    if (generatedFile) {
      const text = (await readFile(generatedFile, 'utf8')).replaceAll('http://{origin}', origin);
      send(response, 200, path.endsWith('.xml') ? 'application/xml' : 'text/plain; charset=utf-8', text);
      return;
    }
    const file = join(root, normalize(path.endsWith('/') ? `${path}index.html` : path));
    const stats = file.startsWith(root) ? await stat(file).catch(() => undefined) : undefined;
    if (!stats?.isFile()) {
      send(response, 404, 'text/html; charset=utf-8', '<html><body><h1>Not Found</h1></body></html>');
      return;
    }
    const type = contentTypes[extname(file)] ?? 'application/octet-stream';
    sendConditional(request, response, type, await readFile(file), stats.mtime);
  });
}

/** Edited pages are newer than the files they replace. */
const EDITED_AT = new Date();

function sendConditional(
  request: IncomingMessage,
  response: ServerResponse,
  type: string,
  body: Buffer,
  modified: Date,
): void {
  const etag = `"${createHash('sha1').update(body).digest('hex')}"`;
  const lastModified = modified.toUTCString();
  const validators = { etag, 'last-modified': lastModified };
  const unchanged =
    request.headers['if-none-match'] !== undefined
      ? request.headers['if-none-match'] === etag
      : request.headers['if-modified-since'] === lastModified;
  if (unchanged) {
    response.writeHead(304, validators);
    response.end();
    return;
  }
  response.writeHead(200, { 'content-type': type, 'content-length': body.length, ...validators });
  response.end(body);
}

function send(response: ServerResponse, status: number, type: string, body: string | Buffer): void {
  response.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  response.end(body);
}
