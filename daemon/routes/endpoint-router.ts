import Router, { type RouterContext, type RouterMiddleware } from '@koa/router';
import type { z } from 'zod';
import {
  type Auth,
  ENDPOINTS,
  type Endpoint,
  type EndpointOf,
  type OperationId,
  type PathParameter,
} from '../../src/api/endpoints.ts';
import { parseWith } from '../validate.ts';

type Checked<Entry, Part extends 'query' | 'body'> = Entry extends {
  [Key in Part]: infer Schema extends z.ZodType;
}
  ? z.output<Schema>
  : undefined;

/** A request as the endpoint table's schemas checked it. */
export interface RouteRequest<Id extends OperationId> {
  params: Record<PathParameter<EndpointOf<Id>['path']>, string>;
  query: Checked<EndpointOf<Id>, 'query'>;
  body: Checked<EndpointOf<Id>, 'body'>;
}

/**
 * What an endpoint does: call a service and return the response body, sent with the table's status. A route
 * that streams takes the response over itself (`ctx.respond = false`) and returns nothing.
 */
export type Handler<Id extends OperationId> = (
  request: RouteRequest<Id>,
  ctx: RouterContext,
) => Promise<z.output<EndpointOf<Id>['response']> | undefined>;

/**
 * The escape hatch, for a route that reads the request itself; the table still gives its method, path and
 * authentication.
 */
export interface OwnRoute {
  own: RouterMiddleware;
}

/** Each route file's part of the table: its endpoints' handlers, by operationId. */
export type Routes = { [Id in OperationId]?: Handler<Id> | OwnRoute };

/** Any endpoint's route, once taken out of the typed record. */
type AnyRoute = ((request: never, ctx: RouterContext) => Promise<unknown>) | OwnRoute;

/** Who may call an endpoint of each `auth`: the key checks run before the route, for matched routes only. */
export type Guards = Record<Auth, RouterMiddleware[]>;

/** `{id}` in the table, `:id` for the router. */
function routerPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/** Joins the route files' parts, refusing an endpoint with no route or two, and a route for no endpoint. */
export function routesByOperationId(parts: readonly Routes[]): Map<string, AnyRoute> {
  const routes = new Map<string, AnyRoute>();
  for (const [operationId, route] of parts.flatMap((part) => Object.entries(part))) {
    if (routes.has(operationId)) throw new Error(`two routes for the endpoint ${operationId}`);
    routes.set(operationId, route);
  }
  const declared = new Set(ENDPOINTS.map((entry) => entry.operationId));
  const unknown = [...routes.keys()].filter((operationId) => !declared.has(operationId));
  const missing = [...declared].filter((operationId) => !routes.has(operationId));
  if (unknown.length > 0) throw new Error(`routes for no endpoint: ${unknown.join(', ')}`);
  if (missing.length > 0) throw new Error(`endpoints with no route: ${missing.join(', ')}`);
  return routes;
}

function checkedRoute(
  entry: Endpoint,
  handle: (request: never, ctx: RouterContext) => Promise<unknown>,
  readBody: (ctx: RouterContext) => Promise<unknown>,
): RouterMiddleware {
  return async (ctx) => {
    const request = {
      params: ctx.params,
      query: entry.query ? parseWith(entry.query, ctx.query) : undefined,
      body: entry.body ? parseWith(entry.body, await readBody(ctx)) : undefined,
    };
    // Routes typed each handler for its own entry's request, which these are the parts of.
    const body = await handle(request as never, ctx);
    if (ctx.respond === false) return;
    ctx.status = entry.status;
    ctx.body = body;
  };
}

/** One router for every endpoint of the table, each answered by its route from `parts`. */
export function endpointRouter(
  parts: readonly Routes[],
  options: { guards: Guards; readBody: (ctx: RouterContext) => Promise<unknown> },
): Router {
  const routes = routesByOperationId(parts);
  const router = new Router();
  for (const entry of ENDPOINTS) {
    const route = routes.get(entry.operationId) as AnyRoute;
    const answer = 'own' in route ? route.own : checkedRoute(entry, route, options.readBody);
    router.register(
      routerPath(entry.path),
      [entry.method.toUpperCase()],
      [...options.guards[entry.auth], answer],
    );
  }
  return router;
}
