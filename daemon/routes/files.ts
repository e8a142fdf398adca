import type { Services } from '../services/index.ts';
import { accountOf, callerOf } from './caller.ts';
import type { Routes } from './endpoint-router.ts';
import type { RouteOptions } from './options.ts';

export function fileRoutes(services: Services, options: RouteOptions) {
  const { files } = services;
  return {
    listFiles: async ({ query }, ctx) => files.list(accountOf(ctx), query),
    presignUpload: async ({ query }, ctx) => files.presign(callerOf(ctx), options.baseUrl(), query.name),
    deleteFile: async ({ params }, ctx) => files.remove(accountOf(ctx), params.id),
    // Authorised by the URL's signature, not a key, so a browser or curl can PUT to it; the body is the file's
    // bytes, streamed to the service unread.
    uploadFile: async ({ params, query }, ctx) => {
      const length = ctx.get('content-length');
      return files.upload(
        {
          fileId: params.id,
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
    },
  } satisfies Routes;
}
