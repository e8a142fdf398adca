import type { Context } from 'koa';

/** The contract's keep-alive: a comment line every 15 s. */
export const PING_INTERVAL_MS = 15_000;

export interface EventStream {
  send(event: 'chunk' | 'done' | 'error', data: unknown): void;
  end(): void;
}

/**
 * Takes over the response as `text/event-stream`. Event names are fixed strings and data is one line of
 * JSON, so no field can smuggle a line break into the framing. A `: ping` comment keeps idle proxies from
 * closing the connection while a slow model thinks.
 */
export function openEventStream(ctx: Context, pingIntervalMs = PING_INTERVAL_MS): EventStream {
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
    send(event, data) {
      if (ended) return;
      response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    end() {
      if (ended) return;
      ended = true;
      clearInterval(ping);
      response.end();
    },
  };
}
