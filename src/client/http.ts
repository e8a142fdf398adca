import type { Readable } from 'node:stream';
import { type Dispatcher, request } from 'undici';
import type { z } from 'zod';
import type { HttpMethod } from '../api/endpoints.ts';
import { ErrorBody } from '../api/errors.ts';
import { CkbApiError, DaemonUnreachableError, InvalidResponseError, RequestAbortedError } from './errors.ts';

export interface TransportOptions {
  url: string;
  apiKey?: string | undefined;
  /** An undici dispatcher (Agent, Pool) to share connections or set timeouts; the global one otherwise. */
  dispatcher?: Dispatcher | undefined;
}

export type Query = Record<string, string | number | undefined>;

export interface SendOptions {
  method: Uppercase<HttpMethod>;
  /** A path below the base URL, or an absolute URL (pre-signed uploads). */
  path: string;
  query?: Query | undefined;
  json?: unknown;
  raw?: { body: Readable | Uint8Array; length: number } | undefined;
  authenticate?: boolean;
  accept?: string;
  signal?: AbortSignal | undefined;
}

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function errorCodes(error: unknown): string[] {
  const { code, errors } = error as { code?: unknown; errors?: unknown };
  // Happy eyeballs (localhost → ::1 and 127.0.0.1) reports an AggregateError whose parts carry the codes.
  const nested = Array.isArray(errors) ? errors.flatMap(errorCodes) : [];
  return typeof code === 'string' ? [code, ...nested] : nested;
}

export function createTransport(options: TransportOptions) {
  const baseUrl = options.url.replace(/\/+$/, '');

  function urlFor(path: string, query: Query | undefined): string {
    const url = new URL(/^https?:\/\//.test(path) ? path : baseUrl + path);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url.toString();
  }

  function headersFor(send: SendOptions): Record<string, string> {
    const headers: Record<string, string> = { accept: send.accept ?? 'application/json' };
    if (send.authenticate !== false && options.apiKey !== undefined) {
      headers['authorization'] = `Bearer ${options.apiKey}`;
    }
    if (send.json !== undefined) headers['content-type'] = 'application/json';
    if (send.raw) {
      headers['content-type'] = 'application/octet-stream';
      headers['content-length'] = String(send.raw.length);
    }
    return headers;
  }

  async function send(send: SendOptions): Promise<Dispatcher.ResponseData> {
    const url = urlFor(send.path, send.query);
    let response: Dispatcher.ResponseData;
    try {
      response = await request(url, {
        method: send.method,
        headers: headersFor(send),
        body: send.raw ? send.raw.body : send.json === undefined ? null : JSON.stringify(send.json),
        signal: send.signal ?? null,
        ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
      });
    } catch (error) {
      throw translateTransportError(error, send.signal, baseUrl);
    }
    if (response.statusCode >= 400) throw await errorFrom(response);
    return response;
  }

  async function json<Schema extends z.ZodType>(
    schema: Schema,
    sendOptions: SendOptions,
  ): Promise<z.output<Schema>> {
    const response = await send(sendOptions);
    let body: unknown;
    try {
      body = await response.body.json();
    } catch (error) {
      throw translateTransportError(
        error,
        sendOptions.signal,
        baseUrl,
        'the daemon answered with invalid JSON',
      );
    }
    const checked = schema.safeParse(body);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      throw new InvalidResponseError(
        `unexpected answer from ${sendOptions.method} ${sendOptions.path}: ${issue?.path.join('.')} ${issue?.message}`,
      );
    }
    // The checked value would drop fields this client does not know yet; callers (and --json) get the daemon's own.
    return body as z.output<Schema>;
  }

  return { baseUrl, send, json };
}

export type Transport = ReturnType<typeof createTransport>;

export function translateTransportError(
  error: unknown,
  signal: AbortSignal | undefined,
  baseUrl: string,
  fallback?: string,
): Error {
  if (signal?.aborted) return new RequestAbortedError('the request was aborted', { cause: error });
  if (errorCodes(error).some((code) => UNREACHABLE_CODES.has(code))) {
    return new DaemonUnreachableError(baseUrl, { cause: error });
  }
  if (fallback !== undefined) return new InvalidResponseError(fallback, { cause: error });
  return error instanceof Error ? error : new Error(String(error));
}

async function errorFrom(response: Dispatcher.ResponseData): Promise<CkbApiError> {
  const text = await response.body.text().catch(() => '');
  let parsed: ErrorBody | undefined;
  try {
    const checked = ErrorBody.safeParse(JSON.parse(text));
    parsed = checked.success ? checked.data : undefined;
  } catch {
    parsed = undefined;
  }
  const retryAfter = response.headers['retry-after'];
  return CkbApiError.generate(
    response.statusCode,
    parsed,
    typeof retryAfter === 'string' ? retryAfter : undefined,
  );
}
