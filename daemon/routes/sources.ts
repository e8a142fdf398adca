import Router from '@koa/router';
import { ListQuery } from '../../src/api/common.ts';
import {
  CreateSourceBody,
  CreateSourcesBody,
  SourcesQuery,
  UpdateSourceBody,
} from '../../src/api/sources.ts';
import type { Services } from '../services/index.ts';
import { parseWith } from '../validate.ts';
import { accountOf, callerOf } from './caller.ts';
import type { RouteOptions } from './options.ts';

export function sourceRoutes(services: Services, options: RouteOptions): Router {
  const router = new Router({ prefix: '/sources' });
  const { sources } = services;

  router.get('/', async (ctx) => {
    ctx.body = await sources.list(accountOf(ctx), parseWith(SourcesQuery.extend(ListQuery.shape), ctx.query));
  });
  router.post('/', async (ctx) => {
    const body = parseWith(CreateSourceBody, await options.readBody(ctx));
    ctx.status = 201;
    ctx.body = await sources.create(callerOf(ctx), body);
  });
  router.post('/batch', async (ctx) => {
    const body = parseWith(CreateSourcesBody, await options.readBody(ctx));
    ctx.status = 201;
    ctx.body = await sources.createMany(callerOf(ctx), body.sources);
  });
  router.get('/:id', async (ctx) => {
    ctx.body = await sources.get(accountOf(ctx), ctx.params['id']!);
  });
  router.put('/:id', async (ctx, next) => {
    // `/sources/batch` is a path of its own, which takes only POST (405 for the rest).
    if (ctx.params['id'] === 'batch') return next();
    const body = parseWith(UpdateSourceBody, await options.readBody(ctx));
    ctx.body = await sources.update(accountOf(ctx), ctx.params['id']!, body);
  });
  router.post('/:id/sync', async (ctx) => {
    ctx.body = await sources.sync(accountOf(ctx), ctx.params['id']!);
  });
  router.delete('/:id', async (ctx) => {
    ctx.body = await sources.remove(accountOf(ctx), ctx.params['id']!);
  });
  router.get('/:id/chunks', async (ctx) => {
    ctx.body = await sources.chunks(accountOf(ctx), ctx.params['id']!);
  });
  return router;
}
