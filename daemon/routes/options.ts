import type { Context } from 'koa';

/** What routes need from the app besides services: body reading and the request's abort signal. */
export interface RouteOptions {
  readBody(ctx: Context): Promise<unknown>;
  abortSignal(ctx: Context): AbortSignal;
  /**
   * The daemon's own address, for pre-signed upload URLs: never the request's Host header, which a client
   * chooses (`Host: attacker.example` once yielded an upload URL there).
   */
  baseUrl(): string;
  /** How often an open event stream sends its `: ping` comment. */
  pingIntervalMs: number;
}
