import Router from '@koa/router';
import { CreateKeyBody } from '../../src/api/keys.ts';
import type { Services } from '../services/index.ts';
import { parseWith } from '../validate.ts';
import { callerOf } from './caller.ts';
import type { RouteOptions } from './options.ts';

export function adminKeyRoutes(services: Services, options: RouteOptions): Router {
  const router = new Router({ prefix: '/admin/keys' });
  const { keys } = services;

  router.post('/', async (ctx) => {
    const body = parseWith(CreateKeyBody, await options.readBody(ctx));
    ctx.status = 201;
    ctx.body = await keys.create(body);
  });
  router.get('/', async (ctx) => {
    ctx.body = await keys.list();
  });
  router.delete('/:id', async (ctx) => {
    ctx.body = await keys.revoke(callerOf(ctx), ctx.params['id']!);
  });
  return router;
}
