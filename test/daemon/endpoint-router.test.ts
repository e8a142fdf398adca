import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { routesByOperationId } from '../../daemon/routes/endpoint-router.ts';
import { ENDPOINTS } from '../../src/api/endpoints.ts';
import { startTestDaemon, type TestDaemon } from '../support/daemon.ts';

const nothing = async () => undefined;

describe('routes come from the endpoint table', () => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startTestDaemon();
  });
  afterAll(() => daemon.close());

  // The daemon refuses to start unless each endpoint has exactly one route (below); this checks each route is
  // reached at the endpoint's method and path: no 405, and no 404 for the path itself.
  test.each(ENDPOINTS.map((endpoint) => [`${endpoint.method.toUpperCase()} ${endpoint.path}`, endpoint]))(
    '%s is routed',
    async (_label, endpoint) => {
      const path = endpoint.path.replace(/\{\w+\}/g, 'missing');
      const body = endpoint.method === 'post' || endpoint.method === 'put' ? {} : undefined;
      const response = await daemon.call(endpoint.method.toUpperCase(), path, body);
      const message = response.body?.error?.message;
      expect(response.status, JSON.stringify(response.body)).not.toBe(405);
      expect(message).not.toBe(`path ${path} not found`);
    },
  );

  test('an endpoint without a route, with two, or a route for no endpoint is refused', () => {
    expect(() => routesByOperationId([{ getHealth: nothing }])).toThrow(
      /endpoints with no route: getOpenApi, listApplications/,
    );
    expect(() => routesByOperationId([{ getHealth: nothing }, { getHealth: nothing }])).toThrow(
      'two routes for the endpoint getHealth',
    );
    expect(() => routesByOperationId([{ getHealth: nothing, getHelth: nothing } as never])).toThrow(
      'routes for no endpoint: getHelth',
    );
  });
});
