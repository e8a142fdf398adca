import type { Context } from 'koa';

/** Whether the client's connection closed before the response was sent. */
export function clientLeft(ctx: Context): boolean {
  return ctx.req.socket.destroyed && !ctx.res.writableFinished;
}

/** The id errorsAndLogs gave the request, for lines logged further in. */
export function requestIdOf(ctx: Context): string {
  return String(ctx.state['requestId']);
}
