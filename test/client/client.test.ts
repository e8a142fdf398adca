import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  BadRequestError,
  CkbApiError,
  ConflictError,
  createClient,
  DaemonUnreachableError,
  InsufficientStorageError,
  InternalServerError,
  InvalidResponseError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RequestAbortedError,
  ServiceUnavailableError,
  UpstreamError,
} from '../../src/client/index.ts';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

let server: Server | undefined;

/** A stand-in daemon for the client's own behaviour (framing, errors, aborts); the CLI tests use the real one. */
async function stub(handler: Handler): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

function fail(status: number, type: string, extra: Record<string, string> = {}): Handler {
  return (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json', ...extra });
    response.end(JSON.stringify({ error: { type, message: `${type} happened`, param: 'name' } }));
  };
}

const application = {
  id: 'app_1',
  name: 'Garden',
  description: '',
  model: 'lm-3.5-turbo',
  system_message: '',
  created_at: '2026-11-22T18:03:00.000Z',
  updated_at: '2026-11-22T18:03:00.000Z',
};

const reply = {
  conversation_id: 'conv_1',
  title: 'Sun',
  message: 'Six hours.',
  sources: [{ source: 'garden.md', page: 1, score: 0.9, source_id: 'src_1' }],
  usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
};

function sse(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  response.flushHeaders();
}

const pause = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

describe('client requests', () => {
  it('sends the key and JSON, and returns the daemon object with fields it does not know yet', async () => {
    let seen: { authorization?: string | undefined; type?: string | undefined; body: string } = { body: '' };
    const url = await stub((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        seen = { authorization: request.headers.authorization, type: request.headers['content-type'], body };
        response.writeHead(201, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ ...application, future_field: 1 }));
      });
    });
    const created = await createClient({ url, apiKey: 'ckb_secret' }).applications.create({ name: 'Garden' });
    expect(created).toEqual({ ...application, future_field: 1 });
    expect(seen).toEqual({
      authorization: 'Bearer ckb_secret',
      type: 'application/json',
      body: '{"name":"Garden"}',
    });
  });

  it('encodes ids and paging in the URL', async () => {
    let path = '';
    const url = await stub((request, response) => {
      path = request.url ?? '';
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('[]');
    });
    const client = createClient({ url, apiKey: 'k' });
    await client.applications.sources('app/1 x', { limit: 5, after: 'src_9' });
    expect(path).toBe('/applications/app%2F1%20x/sources?limit=5&after=src_9');
  });

  it.each([
    [400, 'invalid_request', BadRequestError],
    [401, 'unauthorized', AuthenticationError],
    [403, 'forbidden', PermissionDeniedError],
    [404, 'not_found', NotFoundError],
    [409, 'conflict', ConflictError],
    [502, 'upstream_error', UpstreamError],
    [503, 'service_unavailable', ServiceUnavailableError],
    [507, 'insufficient_storage', InsufficientStorageError],
    [500, 'internal_error', InternalServerError],
  ] as const)('maps %i to %s', async (status, type, kind) => {
    const url = await stub(fail(status, type));
    const error = await createClient({ url, apiKey: 'k' })
      .applications.get('app_1')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(kind);
    expect(error).toBeInstanceOf(CkbApiError);
    expect(error).toMatchObject({ status, type, param: 'name', message: `${type} happened` });
  });

  it('carries Retry-After on rate limits', async () => {
    const url = await stub(fail(429, 'rate_limited', { 'retry-after': '7' }));
    const error = await createClient({ url, apiKey: 'k' })
      .applications.list()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(7);
  });

  it('still reports a status when the error body is not the contract', async () => {
    const url = await stub((_request, response) => {
      response.writeHead(504, { 'content-type': 'text/plain' });
      response.end('busy');
    });
    const error = await createClient({ url })
      .health()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 504, type: undefined, message: 'the daemon answered 504' });
  });

  it('rejects answers that break the contract', async () => {
    const url = await stub((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ id: 'app_1' }));
    });
    await expect(createClient({ url, apiKey: 'k' }).applications.get('app_1')).rejects.toThrow(
      InvalidResponseError,
    );
  });

  it('says the daemon is unreachable when nothing listens', async () => {
    const url = await stub(() => undefined);
    server?.close();
    const error = await createClient({ url })
      .health()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DaemonUnreachableError);
    expect((error as DaemonUnreachableError).url).toBe(url);
  });

  it('turns an aborted signal into RequestAbortedError', async () => {
    const url = await stub(() => undefined);
    const controller = new AbortController();
    const pending = createClient({ url }).health({ signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toBeInstanceOf(RequestAbortedError);
  });
});

describe('reply streams', () => {
  it('yields chunk events split across TCP writes, then done', async () => {
    let body = '';
    const url = await stub(async (request, response) => {
      request.on('data', (chunk) => {
        body += chunk;
      });
      sse(response);
      const wire = `: ping\n\nevent: chunk\ndata: {"delta":"Six "}\n\nevent: chunk\ndata: {"delta":"hours."}\n\nevent: done\ndata: ${JSON.stringify(reply)}\n\n`;
      for (let index = 0; index < wire.length; index += 7) {
        response.write(wire.slice(index, index + 7));
        await pause(1);
      }
      response.end();
    });
    const stream = await createClient({ url, apiKey: 'k' }).conversations.stream({
      application_id: 'app_1',
      message: 'How much sun?',
    });
    const events = [];
    for await (const event of stream) events.push(event);
    expect(events).toEqual([
      { event: 'chunk', data: { delta: 'Six ' } },
      { event: 'chunk', data: { delta: 'hours.' } },
      { event: 'done', data: reply },
    ]);
    expect(JSON.parse(body)).toEqual({ application_id: 'app_1', message: 'How much sun?', stream: true });
    await expect(async () => {
      for await (const _ of stream) break;
    }).rejects.toThrow(/only once/);
  });

  it('finalReply gathers the deltas and returns the reply', async () => {
    const url = await stub((_request, response) => {
      sse(response);
      response.end(
        `event: chunk\ndata: {"delta":"Six hours."}\n\nevent: done\ndata: ${JSON.stringify(reply)}\n\n`,
      );
    });
    const deltas: string[] = [];
    const stream = await createClient({ url, apiKey: 'k' }).conversations.stream({
      conversation_id: 'c',
      message: 'm',
    });
    expect(await stream.finalReply((delta) => deltas.push(delta))).toEqual(reply);
    expect(deltas).toEqual(['Six hours.']);
  });

  it('throws a typed error for an error event', async () => {
    const url = await stub((_request, response) => {
      sse(response);
      response.end(
        'event: chunk\ndata: {"delta":"Six"}\n\nevent: error\ndata: {"error":{"type":"upstream_error","message":"the provider failed"}}\n\n',
      );
    });
    const stream = await createClient({ url, apiKey: 'k' }).conversations.stream({
      conversation_id: 'c',
      message: 'm',
    });
    const seen: string[] = [];
    const error = await (async () => {
      for await (const event of stream) seen.push(event.event);
    })().catch((caught: unknown) => caught);
    expect(seen).toEqual(['chunk']);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ status: 502, type: 'upstream_error', message: 'the provider failed' });
  });

  it('throws HTTP errors before streaming starts', async () => {
    const url = await stub(fail(404, 'not_found'));
    await expect(
      createClient({ url, apiKey: 'k' }).conversations.stream({ application_id: 'app_x', message: 'm' }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  it('reports a stream that ends without done', async () => {
    const url = await stub((_request, response) => {
      sse(response);
      response.end('event: chunk\ndata: {"delta":"Six"}\n\n');
    });
    const stream = await createClient({ url, apiKey: 'k' }).conversations.stream({
      conversation_id: 'c',
      message: 'm',
    });
    await expect(stream.finalReply()).rejects.toThrow(/ended before its "done" event/);
  });

  it('aborts the request when the loop is left early', async () => {
    let closed: () => void = () => undefined;
    const disconnected = new Promise<void>((resolve) => {
      closed = resolve;
    });
    const url = await stub((_request, response) => {
      sse(response);
      response.on('close', closed);
      const timer = setInterval(() => response.write('event: chunk\ndata: {"delta":"more "}\n\n'), 5);
      response.on('close', () => clearInterval(timer));
    });
    const stream = await createClient({ url, apiKey: 'k' }).conversations.stream({
      conversation_id: 'c',
      message: 'm',
    });
    let count = 0;
    for await (const _event of stream) {
      count += 1;
      if (count === 3) break;
    }
    await disconnected;
    expect(count).toBe(3);
    expect(stream.signal.aborted).toBe(true);
  });

  it('stops with RequestAbortedError when the caller aborts mid-stream', async () => {
    const url = await stub((_request, response) => {
      sse(response);
      response.write('event: chunk\ndata: {"delta":"Six"}\n\n');
    });
    const controller = new AbortController();
    const stream = await createClient({ url, apiKey: 'k' }).conversations.stream(
      { conversation_id: 'c', message: 'm' },
      { signal: controller.signal },
    );
    const result = stream.finalReply(() => controller.abort());
    await expect(result).rejects.toBeInstanceOf(RequestAbortedError);
  });
});
