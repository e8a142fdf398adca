import type { ServerResponse } from 'node:http';
import type { Context } from 'koa';

/** The contract's keep-alive: a comment line every 15 s. */
export const PING_INTERVAL_MS = 15_000;

/**
 * Sends resolve once the client can take more: when the socket's buffer is full they wait for it to drain (or
 * for the client to leave), so a slow reader holds the producer back instead of the reply piling up in memory.
 */
export interface EventStream {
  send(event: 'chunk' | 'done' | 'error', data: unknown): Promise<void>;
  end(): void;
}

/** OpenAI's framing: `data:` lines without event names, closed by `data: [DONE]`. */
export interface DataStream {
  send(data: unknown): Promise<void>;
  /** Sends `data: [DONE]`, which tells OpenAI clients the stream ended normally. */
  done(): Promise<void>;
  end(): void;
}

/**
 * Resolves when a response that refused a write has drained, or when its client left: either way the writer may go
 * on. Neither listener outlives the wait, however many writes wait in turn.
 */
export function drainedOrClosed(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const go = () => {
      response.off('drain', go);
      response.off('close', go);
      resolve();
    };
    response.once('drain', go);
    response.once('close', go);
  });
}

/**
 * Takes over the response as `text/event-stream`. A `: ping` comment keeps idle proxies from closing the
 * connection while a slow model thinks; `write` does nothing once the stream ended.
 */
function startStream(ctx: Context, pingIntervalMs: number) {
  ctx.respond = false;
  const response = ctx.res;
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  response.flushHeaders();
  const ping = setInterval(() => response.write(': ping\n\n'), pingIntervalMs);
  let ended = false;
  return {
    async write(text: string): Promise<void> {
      if (ended || response.write(text) || response.destroyed) return;
      await drainedOrClosed(response);
    },
    end() {
      if (ended) return;
      ended = true;
      clearInterval(ping);
      response.end();
    },
  };
}

/**
 * The contract's event stream. Event names are fixed strings and data is one line of JSON, so no field can
 * smuggle a line break into the framing.
 */
export function openEventStream(ctx: Context, pingIntervalMs = PING_INTERVAL_MS): EventStream {
  const stream = startStream(ctx, pingIntervalMs);
  return {
    send: (event, data) => stream.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`),
    end: stream.end,
  };
}

/** The OpenAI-compatible API's stream: one line of JSON per `data:` field, as for the contract's events. */
export function openDataStream(ctx: Context, pingIntervalMs = PING_INTERVAL_MS): DataStream {
  const stream = startStream(ctx, pingIntervalMs);
  return {
    send: (data) => stream.write(`data: ${JSON.stringify(data)}\n\n`),
    done: () => stream.write('data: [DONE]\n\n'),
    end: stream.end,
  };
}
