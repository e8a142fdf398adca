import Router from '@koa/router';
import { ListQuery } from '../../src/api/common.ts';
import { PresignQuery, UploadQuery } from '../../src/api/files.ts';
import type { Services } from '../services/index.ts';
import { parseWith } from '../validate.ts';
import { accountOf, callerOf } from './caller.ts';
import type { RouteOptions } from './options.ts';

/** Routes that need a key. */
export function fileRoutes(services: Services, options: RouteOptions): Router {
  const router = new Router({ prefix: '/files' });
  const { files } = services;

  router.get('/', async (ctx) => {
    ctx.body = await files.list(accountOf(ctx), parseWith(ListQuery, ctx.query));
  });
  router.get('/presigned-url', (ctx) => {
    const { name } = parseWith(PresignQuery, ctx.query);
    ctx.body = files.presign(callerOf(ctx), options.baseUrl(), name);
  });
  router.delete('/:id', async (ctx) => {
    ctx.body = await files.remove(accountOf(ctx), ctx.params['id']!);
  });
  return router;
}

/** The upload itself: authorised by the URL's signature, not a key, so a browser or curl can PUT to it. */
export function uploadRoutes(services: Services): Router {
  const router = new Router({ prefix: '/files/upload' });
  router.put('/:id', async (ctx) => {
    const query = parseWith(UploadQuery, ctx.query);
    const length = ctx.get('content-length');
    ctx.body = await services.files.upload(
      {
        fileId: ctx.params['id']!,
        accountId: query.account,
        keyId: query.key,
        expires: query.expires,
        signature: query.signature,
        name: query.name,
        headerName: ctx.get('x-file-name') || undefined,
        contentLength: length ? Number(length) : undefined,
        body: ctx.req,
      },
      ctx.get('content-disposition') || undefined,
    );
  });
  return router;
}
