import type { Services } from '../services/index.ts';
import { accountOf } from './caller.ts';
import type { Routes } from './endpoint-router.ts';
import type { RouteOptions } from './options.ts';

export function applicationRoutes(services: Services, options: RouteOptions) {
  const { applications, sources, conversations, search } = services;
  return {
    listApplications: async ({ query }, ctx) => applications.list(accountOf(ctx), query),
    createApplication: async ({ body }, ctx) => applications.create(accountOf(ctx), body),
    getApplication: async ({ params }, ctx) => applications.get(accountOf(ctx), params.id),
    updateApplication: async ({ params, body }, ctx) => applications.update(accountOf(ctx), params.id, body),
    deleteApplication: async ({ params }, ctx) => applications.remove(accountOf(ctx), params.id),
    listApplicationConversations: async ({ params, query }, ctx) =>
      conversations.listForApplication(accountOf(ctx), params.id, query),
    listApplicationSources: async ({ params, query }, ctx) =>
      sources.listForApplication(accountOf(ctx), params.id, query),
    clearApplicationSources: async ({ params }, ctx) => sources.clear(accountOf(ctx), params.id),
    searchApplication: async ({ params, body }, ctx) =>
      search.search(accountOf(ctx), params.id, body, options.abortSignal(ctx)),
  } satisfies Routes;
}
