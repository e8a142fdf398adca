import { endpoint } from '../../src/api/endpoints.ts';
import type { Services } from '../services/index.ts';
import { parseWith } from '../validate.ts';
import { accountOf, callerOf } from './caller.ts';
import type { Routes } from './endpoint-router.ts';
import type { RouteOptions } from './options.ts';

export function sourceRoutes(services: Services, options: RouteOptions) {
  const { sources } = services;
  return {
    listSources: async ({ query }, ctx) => sources.list(accountOf(ctx), query),
    createSource: async ({ body }, ctx) => sources.create(callerOf(ctx), body),
    createSources: async ({ body }, ctx) => sources.createMany(callerOf(ctx), body.sources),
    getSource: async ({ params }, ctx) => sources.get(accountOf(ctx), params.id),
    updateSource: {
      own: async (ctx, next) => {
        // `/sources/batch` is a path of its own, which takes only POST (405 for the rest): declined before the
        // body is read, so even a batch's body gets the 405.
        if (ctx.params['id'] === 'batch') return next();
        const body = parseWith(endpoint('updateSource').body, await options.readBody(ctx));
        ctx.body = await sources.update(accountOf(ctx), ctx.params['id']!, body);
      },
    },
    syncSource: async ({ params }, ctx) => sources.sync(accountOf(ctx), params.id),
    deleteSource: async ({ params }, ctx) => sources.remove(accountOf(ctx), params.id),
    listSourceChunks: async ({ params }, ctx) => sources.chunks(accountOf(ctx), params.id),
  } satisfies Routes;
}
