import { openApiDocument } from '../../src/api/openapi.ts';
import type { Services } from '../services/index.ts';
import type { Routes } from './endpoint-router.ts';

/** The service's own endpoints, open to anyone: its health and the OpenAPI document. */
export function serviceRoutes(services: Services, options: { version: string; url: () => string }) {
  // Built at the first request, once the daemon listens and knows its own URL.
  let document: ReturnType<typeof openApiDocument> | undefined;
  return {
    getHealth: async () => services.health.check(),
    getOpenApi: async () => {
      document ??= openApiDocument(options.version, options.url());
      return document;
    },
  } satisfies Routes;
}
