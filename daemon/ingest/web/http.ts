import { STATUS_CODES } from 'node:http';
import { isIP } from 'node:net';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { Agent, buildConnector, request } from 'undici';
import { BlockedAddressError, guardedLookup, isPublicAddress, refusalMessage } from './address-guard.ts';
import { FetchError } from './errors.ts';

export interface FetchOptions {
  /** The whole exchange (connection, redirects, headers and body) must finish within this time. */
  timeoutMs?: number;
  /** Bodies larger than this (after decompression) are refused; the download stops at the cap. */
  maxBytes?: number;
  maxRedirects?: number;
  userAgent?: string;
  /** Refuse loopback, private, link-local and other non-public addresses, checked after DNS resolution. */
  blockPrivateAddresses?: boolean;
  signal?: AbortSignal;
}

export const defaultUserAgent = 'ckb/0.1 (+local knowledge base)';
const defaults = { timeoutMs: 30_000, maxBytes: 50 * 1024 * 1024, maxRedirects: 5 };
const connectTimeoutMs = 10_000;
const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/** What a re-sync knows of an address: the validators its last response carried. */
export interface Validators {
  etag?: string | undefined;
  lastModified?: string | undefined;
}

/**
 * A response whose headers arrived; its body is still unread so callers can refuse it cheaply. Asked with
 * validators, it may be 304: the page has not changed, and has no body.
 */
export interface OpenResponse {
  /** The address after redirects. */
  url: string;
  status: number;
  /** The response's own validators, for the next request of this address. */
  etag?: string;
  lastModified?: string;
  /** The media type, lower-cased, without parameters (`text/html`), or `''` when absent. */
  mediaType: string;
  /** The `charset` parameter of Content-Type, when given. */
  charset?: string;
  /** Reads the whole (decompressed) body, stopping at the size cap. */
  read(): Promise<Uint8Array>;
  /** Drops the body unread. */
  discard(): void;
}

/** Shares one connection pool (and its address guard) between the requests of one job. */
export interface WebClient {
  open(url: string, accept?: string, validators?: Validators): Promise<OpenResponse>;
  close(): Promise<void>;
}

export function createWebClient(options: FetchOptions = {}): WebClient {
  const settings = { ...defaults, ...definedOnly(options) };
  const userAgent = options.userAgent ?? defaultUserAgent;
  const dispatcher = createDispatcher(settings.timeoutMs, options.blockPrivateAddresses ?? false);
  return {
    open: (url, accept = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8', validators = {}) =>
      openFollowingRedirects(url, {
        ...settings,
        userAgent,
        accept,
        validators,
        dispatcher,
        signal: options.signal,
      }),
    close: () => dispatcher.close(),
  };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}

function createDispatcher(timeoutMs: number, blockPrivateAddresses: boolean): Agent {
  const timeout = Math.min(connectTimeoutMs, timeoutMs);
  const common = { headersTimeout: timeoutMs, bodyTimeout: timeoutMs, keepAliveTimeout: 4_000 };
  if (!blockPrivateAddresses) return new Agent({ ...common, connect: { timeout } });
  const connectResolved = buildConnector({ timeout, lookup: guardedLookup });
  return new Agent({
    ...common,
    connect: (connectOptions, callback) => {
      // Node skips the lookup for IP literals, so those are judged here.
      const host = connectOptions.hostname.replace(/^\[|\]$/g, '');
      if (isIP(host) && !isPublicAddress(host)) {
        callback(new BlockedAddressError(refusalMessage(host, host)), null);
        return;
      }
      connectResolved(connectOptions, callback);
    },
  });
}

interface OpenSettings {
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  userAgent: string;
  accept: string;
  validators: Validators;
  dispatcher: Agent;
  signal: AbortSignal | undefined;
}

export function parseHttpUrl(address: string): URL {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new FetchError(address, `${address} is not a valid web address`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FetchError(address, `${address} is not an http(s) address`);
  }
  url.hash = '';
  return url;
}

async function openFollowingRedirects(address: string, settings: OpenSettings): Promise<OpenResponse> {
  const deadline = AbortSignal.timeout(settings.timeoutMs);
  const signal = settings.signal ? AbortSignal.any([settings.signal, deadline]) : deadline;
  const chain: string[] = [];
  let url = parseHttpUrl(address);
  for (;;) {
    chain.push(url.href);
    const response = await send(url, settings, signal, deadline);
    const location = response.headers['location'];
    if (redirectStatuses.has(response.statusCode) && typeof location === 'string') {
      response.body.dump().catch(() => {});
      url = nextHop(address, url, location, chain, settings.maxRedirects);
      continue;
    }
    if (response.statusCode === 304 && (settings.validators.etag || settings.validators.lastModified)) {
      response.body.dump().catch(() => {});
      return notModified(url.href);
    }
    if (response.statusCode < 200 || response.statusCode >= 300) {
      response.body.dump().catch(() => {});
      const statusText = response.statusText || STATUS_CODES[response.statusCode] || '';
      throw new FetchError(url.href, `${url.href} answered ${response.statusCode} ${statusText}`.trimEnd(), {
        status: response.statusCode,
      });
    }
    return openResponse(url.href, response, settings, signal, deadline);
  }
}

function nextHop(start: string, current: URL, location: string, chain: string[], maxRedirects: number): URL {
  let next: URL;
  try {
    next = new URL(location, current);
  } catch {
    throw new FetchError(current.href, `${current.href} redirects to an invalid address (${location})`);
  }
  next.hash = '';
  if (next.protocol !== 'http:' && next.protocol !== 'https:') {
    throw new FetchError(
      current.href,
      `${current.href} redirects to ${next.href}, which is not an http(s) address`,
    );
  }
  if (chain.includes(next.href)) {
    throw new FetchError(start, `${start} redirects in a loop (${[...chain, next.href].join(' → ')})`);
  }
  if (chain.length > maxRedirects) {
    throw new FetchError(start, `${start} redirected more than ${maxRedirects} times (last to ${next.href})`);
  }
  return next;
}

/** The answer to a conditional request when the page has not changed since the validators were given. */
function notModified(url: string): OpenResponse {
  return {
    url,
    status: 304,
    mediaType: '',
    read: async () => new Uint8Array(),
    discard: () => {},
  };
}

async function send(url: URL, settings: OpenSettings, signal: AbortSignal, deadline: AbortSignal) {
  const { etag, lastModified } = settings.validators;
  try {
    return await request(url, {
      method: 'GET',
      dispatcher: settings.dispatcher,
      signal,
      headers: {
        'user-agent': settings.userAgent,
        accept: settings.accept,
        'accept-encoding': 'gzip, deflate, br',
        ...(etag ? { 'if-none-match': etag } : {}),
        ...(lastModified ? { 'if-modified-since': lastModified } : {}),
      },
    });
  } catch (error) {
    throw networkError(url.href, error, settings, deadline);
  }
}

function openResponse(
  url: string,
  response: Awaited<ReturnType<typeof request>>,
  settings: OpenSettings,
  signal: AbortSignal,
  deadline: AbortSignal,
): OpenResponse {
  const contentType = headerValue(response.headers['content-type']);
  const [mediaType = '', ...parameters] = contentType.split(';').map((part) => part.trim());
  const charset = parameters
    .map((parameter) => /^charset\s*=\s*"?([^";]+)"?$/i.exec(parameter)?.[1])
    .find((value) => value !== undefined);
  const declaredLength = Number(headerValue(response.headers['content-length']));
  const etag = headerValue(response.headers['etag']);
  const lastModified = headerValue(response.headers['last-modified']);
  return {
    url,
    status: response.statusCode,
    mediaType: mediaType.toLowerCase(),
    ...(charset ? { charset } : {}),
    ...(etag ? { etag } : {}),
    ...(lastModified ? { lastModified } : {}),
    read: async () => {
      if (declaredLength > settings.maxBytes) {
        drop(response.body);
        throw tooLarge(url, settings.maxBytes);
      }
      const encoding = headerValue(response.headers['content-encoding']).toLowerCase();
      try {
        return await readCapped(url, decoded(response.body, encoding), settings.maxBytes);
      } catch (error) {
        drop(response.body);
        if (error instanceof FetchError) throw error;
        throw networkError(url, error, settings, deadline, signal);
      }
    },
    discard: () => drop(response.body),
  };
}

/** Destroying an undici body emits an abort error, which nobody is waiting for once we drop it. */
function drop(body: Readable): void {
  body.on('error', () => {});
  body.destroy();
}

function headerValue(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

function decoded(body: Readable, encoding: string): Readable {
  if (encoding === 'gzip' || encoding === 'x-gzip') return body.pipe(createGunzip());
  if (encoding === 'deflate') return body.pipe(createInflate());
  if (encoding === 'br') return body.pipe(createBrotliDecompress());
  return body;
}

async function readCapped(url: string, body: Readable, maxBytes: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) {
      drop(body);
      throw tooLarge(url, maxBytes);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}

function tooLarge(url: string, maxBytes: number): FetchError {
  return new FetchError(url, `${url} is larger than ${formatBytes(maxBytes)}, the size limit`);
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KiB`;
  return `${bytes} bytes`;
}

function networkError(
  url: string,
  error: unknown,
  settings: OpenSettings,
  deadline: AbortSignal,
  signal: AbortSignal = deadline,
): Error {
  if (settings.signal?.aborted)
    return settings.signal.reason instanceof Error ? settings.signal.reason : asError(error);
  if (deadline.aborted || (signal.aborted && !settings.signal?.aborted)) {
    return new FetchError(url, `${url} did not finish answering within ${settings.timeoutMs} ms`, {
      cause: error,
    });
  }
  const cause = rootCause(error);
  if (cause instanceof BlockedAddressError) return new FetchError(url, cause.message, { cause: error });
  const code = (cause as { code?: string }).code ?? '';
  const host = new URL(url).host;
  const message =
    code === 'ENOTFOUND' || code === 'EAI_AGAIN'
      ? `${host} could not be found (DNS lookup failed)`
      : code === 'ECONNREFUSED'
        ? `${host} refused the connection`
        : code === 'UND_ERR_CONNECT_TIMEOUT'
          ? `${host} did not accept a connection within ${Math.min(connectTimeoutMs, settings.timeoutMs)} ms`
          : code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT'
            ? `${url} did not finish answering within ${settings.timeoutMs} ms`
            : code.startsWith('ERR_TLS') || code.includes('CERT')
              ? `${host} presented an invalid TLS certificate (${code})`
              : `${url} could not be fetched: ${asError(cause).message}`;
  return new FetchError(url, message, { cause: error });
}

function rootCause(error: unknown): unknown {
  let current = error;
  while (
    current instanceof Error &&
    current.cause !== undefined &&
    !(current instanceof BlockedAddressError)
  ) {
    current = current.cause;
  }
  return current;
}

function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
