import Router from '@koa/router';
import { CreateApplicationBody, UpdateApplicationBody } from '../../src/api/applications.ts';
import { ListQuery } from '../../src/api/common.ts';
import { SearchBody } from '../../src/api/search.ts';
import type { Services } from '../services/index.ts';
import { parseWith } from '../validate.ts';
import { accountOf } from './caller.ts';
import type { RouteOptions } from './options.ts';

export function applicationRoutes(services: Services, options: RouteOptions): Router {
  const router = new Router({ prefix: '/applications' });
  const { applications, sources, conversations, search } = services;

  router.get('/', async (ctx) => {
    ctx.body = await applications.list(accountOf(ctx), parseWith(ListQuery, ctx.query));
  });
  router.post('/', async (ctx) => {
    const body = parseWith(CreateApplicationBody, await options.readBody(ctx));
    ctx.status = 201;
    ctx.body = await applications.create(accountOf(ctx), body);
  });
  router.get('/:id', async (ctx) => {
    ctx.body = await applications.get(accountOf(ctx), ctx.params['id']!);
  });
  router.put('/:id', async (ctx) => {
    const body = parseWith(UpdateApplicationBody, await options.readBody(ctx));
    ctx.body = await applications.update(accountOf(ctx), ctx.params['id']!, body);
  });
  router.delete('/:id', async (ctx) => {
    ctx.body = await applications.remove(accountOf(ctx), ctx.params['id']!);
  });
  router.get('/:id/conversations', async (ctx) => {
    ctx.body = await conversations.listForApplication(
      accountOf(ctx),
      ctx.params['id']!,
      parseWith(ListQuery, ctx.query),
    );
  });
  router.get('/:id/sources', async (ctx) => {
    ctx.body = await sources.listForApplication(
      accountOf(ctx),
      ctx.params['id']!,
      parseWith(ListQuery, ctx.query),
    );
  });
  router.delete('/:id/sources', async (ctx) => {
    ctx.body = await sources.clear(accountOf(ctx), ctx.params['id']!);
  });
  router.post('/:id/search', async (ctx) => {
    const body = parseWith(SearchBody, await options.readBody(ctx));
    ctx.body = await search.search(accountOf(ctx), ctx.params['id']!, body, options.abortSignal(ctx));
  });
  return router;
}
