import type { z } from 'zod';
import {
  type Endpoint,
  type EndpointOf,
  endpoint,
  type HttpMethod,
  type OperationId,
  type PathParameter,
  pathOf,
} from '../api/endpoints.ts';
import type { Query, Transport } from './http.ts';

type Params<Id extends OperationId> = [PathParameter<EndpointOf<Id>['path']>] extends [never]
  ? { params?: never }
  : { params: Record<PathParameter<EndpointOf<Id>['path']>, string> };

type Json<Id extends OperationId> =
  EndpointOf<Id> extends { body: infer Body extends z.ZodType } ? { json: z.input<Body> } : { json?: never };

type QueryOption<Id extends OperationId> =
  EndpointOf<Id> extends { query: z.ZodType } ? { query?: Query | undefined } : { query?: never };

/** What a call to an endpoint needs besides the table: its path parameters, query and body, as it takes them. */
export type CallOptions<Id extends OperationId> = Params<Id> &
  Json<Id> &
  QueryOption<Id> & { signal?: AbortSignal | undefined };

export function methodOf(entry: Endpoint): Uppercase<HttpMethod> {
  return entry.method.toUpperCase() as Uppercase<HttpMethod>;
}

/** Whether the endpoint wants the API key; the others are open or authorised by a signed URL. */
export function sendsKey(entry: Endpoint): boolean {
  return entry.auth === 'key' || entry.auth === 'admin';
}

/** Calls an endpoint by its operationId: method, path and the response's schema all come from the table. */
export function createCall(transport: Transport) {
  return <Id extends OperationId>(
    operationId: Id,
    options: CallOptions<Id>,
  ): Promise<z.output<EndpointOf<Id>['response']>> => {
    const entry = endpoint(operationId);
    const answer = transport.json(entry.response, {
      method: methodOf(entry),
      path: pathOf(entry, options.params),
      query: options.query,
      json: options.json,
      authenticate: sendsKey(entry),
      signal: options.signal,
    });
    // `entry.response` is EndpointOf<Id>'s schema, but TypeScript cannot follow the generic through the union.
    return answer as Promise<z.output<EndpointOf<Id>['response']>>;
  };
}
