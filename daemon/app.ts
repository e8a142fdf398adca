import { randomBytes } from 'node:crypto';
import Koa, { type Context, type Next } from 'koa';
import { ENDPOINTS } from '../src/api/endpoints.ts';
import { CkbError, notFound, toErrorResponse, toOpenAiErrorResponse } from './errors.ts';
import type { Logger } from './logger.ts';
import { adminKeyRoutes } from './routes/admin-keys.ts';
import { applicationRoutes } from './routes/applications.ts';
import { requireKey } from './routes/caller.ts';
import { conversationRoutes } from './routes/conversations.ts';
import { endpointRouter, type Guards } from './routes/endpoint-router.ts';
import { fileRoutes } from './routes/files.ts';
import { mcpRoutes } from './routes/mcp.ts';
import { isOpenAiPath, openAiRoutes } from './routes/openai.ts';
import type { RouteOptions } from './routes/options.ts';
import { clientLeft } from './routes/request.ts';
import { serviceRoutes } from './routes/service.ts';
import { sourceRoutes } from './routes/sources.ts';
import { PING_INTERVAL_MS } from './routes/sse.ts';
import type { Services } from './services/index.ts';
import { readJsonBody } from './validate.ts';

export interface AppOptions {
  services: Services;
  logger: Logger;
  version: string;
  /** The daemon's own URL (known once it listens): pre-signed upload URLs and the OpenAPI server point there. */
  url: () => string;
  bodyLimitBytes: number;
  pingIntervalMs?: number;
  ratePerMinute: number;
}

const KNOWN_PATHS = [...new Set(ENDPOINTS.map((endpoint) => endpoint.path))].map((path) => ({
  pattern: new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}/?$`),
  methods: ENDPOINTS.filter((endpoint) => endpoint.path === path).map((endpoint) =>
    endpoint.method.toUpperCase(),
  ),
}));

/** Reached only when no route answered: a known path with another method is 405, anything else 404. */
function unmatched(ctx: Context): never {
  const known = KNOWN_PATHS.find(({ pattern }) => pattern.test(ctx.path));
  if (known) {
    throw new CkbError(
      'method_not_allowed',
      `${ctx.method} is not allowed on ${ctx.path}; use ${known.methods.join(', ')}`,
      {
        headers: { allow: known.methods.join(', ') },
      },
    );
  }
  throw notFound('path', ctx.path);
}

function errorsAndLogs(logger: Logger) {
  // A random prefix per start and a counter: unique across restarts, and far cheaper than random bytes per request.
  const prefix = randomBytes(3).toString('hex');
  let counter = 0;
  return async (ctx: Context, next: Next): Promise<void> => {
    counter = (counter + 1) % 0x1000000;
    const requestId = `${prefix}${counter.toString(16).padStart(6, '0')}`;
    const started = performance.now();
    ctx.set('x-request-id', requestId);
    ctx.state['requestId'] = requestId;
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined && ctx.respond !== false) unmatched(ctx);
    } catch (error) {
      const response = isOpenAiPath(ctx.path) ? toOpenAiErrorResponse(error) : toErrorResponse(error);
      if (response.internal && clientLeft(ctx)) {
        // The client closed the connection mid-request (an upload cut short, a turn abandoned): the work stopped
        // with it, which is expected, not a fault of ours.
        logger.log('info', 'client disconnected', {
          request_id: requestId,
          method: ctx.method,
          path: ctx.path,
        });
      } else if (response.internal) {
        logger.log('error', 'request failed', {
          request_id: requestId,
          error: String(error),
          stack: (error as Error).stack,
        });
      }
      ctx.status = response.status;
      ctx.set(response.headers);
      ctx.body = response.body;
    }
    logger.log('info', 'request', {
      request_id: requestId,
      method: ctx.method,
      path: ctx.path,
      status: ctx.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
    });
  };
}

function abortSignal(ctx: Context): AbortSignal {
  const controller = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) controller.abort(new Error('the client disconnected'));
  });
  return controller.signal;
}

export function createApp(options: AppOptions): Koa {
  const { services, logger, version } = options;
  const app = new Koa();
  // Errors are answered and logged by errorsAndLogs; Koa's own handler would only repeat them on stderr.
  app.silent = true;
  const routeOptions: RouteOptions = {
    readBody: (ctx) => readJsonBody(ctx, options.bodyLimitBytes),
    abortSignal,
    baseUrl: options.url,
    pingIntervalMs: options.pingIntervalMs ?? PING_INTERVAL_MS,
  };

  // Key checks are route middleware, which runs only for requests that match a route, so unknown paths and
  // wrong methods reach `unmatched` without asking for a key.
  const guards: Guards = {
    none: [],
    // The upload service checks the URL's signature itself.
    signature: [],
    key: [requireKey(services.keys, { admin: false, ratePerMinute: options.ratePerMinute })],
    admin: [requireKey(services.keys, { admin: true, ratePerMinute: options.ratePerMinute })],
  };
  const router = endpointRouter(
    [
      serviceRoutes(services, { version, url: options.url }),
      applicationRoutes(services, routeOptions),
      sourceRoutes(services, routeOptions),
      fileRoutes(services, routeOptions),
      conversationRoutes(services, { ...routeOptions, logger }),
      openAiRoutes(services, { ...routeOptions, logger }),
      mcpRoutes({ services, logger, version }, routeOptions),
      adminKeyRoutes(services),
    ],
    { guards, readBody: routeOptions.readBody },
  );

  app.use(errorsAndLogs(logger));
  app.use(router.routes());
  return app;
}
