import type { Services } from '../services/index.ts';
import { callerOf } from './caller.ts';
import type { Routes } from './endpoint-router.ts';

export function adminKeyRoutes(services: Services) {
  const { keys } = services;
  return {
    createKey: async ({ body }) => keys.create(body),
    listKeys: async () => keys.list(),
    revokeKey: async ({ params }, ctx) => keys.revoke(callerOf(ctx), params.id),
  } satisfies Routes;
}
