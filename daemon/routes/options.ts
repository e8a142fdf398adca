import type { Context } from 'koa';

/** What routes need from the app besides services: body reading and the request's abort signal. */
export interface RouteOptions {
  readBody(ctx: Context): Promise<unknown>;
  abortSignal(ctx: Context): AbortSignal;
  /** The address clients reach this daemon at, for pre-signed upload URLs. */
  baseUrl(ctx: Context): string;
  /** How often an open event stream sends its `: ping` comment. */
  pingIntervalMs: number;
}
