import { z } from 'zod';
import { ENDPOINTS, type Endpoint } from './endpoints.ts';
import { STATUS_BY_TYPE } from './error-status.ts';
import { ERROR_TYPES, ErrorBody, type ErrorType } from './errors.ts';
import { JsonRpcErrorBody } from './mcp.ts';
import { OpenAiErrorBody } from './openai.ts';

type JsonObject = Record<string, unknown>;

function schema(type: z.ZodType, io: 'input' | 'output'): JsonObject {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(type, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  });
  return rest;
}

function parameters(endpoint: Endpoint): JsonObject[] {
  const path = [...endpoint.path.matchAll(/\{(\w+)\}/g)].map((match) => ({
    name: match[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const query = endpoint.query ? schema(endpoint.query, 'input') : undefined;
  const properties = (query?.['properties'] ?? {}) as Record<string, JsonObject>;
  const required = new Set((query?.['required'] as string[] | undefined) ?? []);
  const queryParameters = Object.entries(properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: required.has(name),
    schema: property,
  }));
  return [...path, ...queryParameters];
}

function requestBody(endpoint: Endpoint): JsonObject | undefined {
  if (endpoint.rawBody) {
    return {
      required: true,
      content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
    };
  }
  if (!endpoint.body) return undefined;
  return { required: true, content: { 'application/json': { schema: schema(endpoint.body, 'input') } } };
}

function responses(endpoint: Endpoint): JsonObject {
  const content: JsonObject = { 'application/json': { schema: schema(endpoint.response, 'output') } };
  if (endpoint.streams) {
    content['text/event-stream'] = {
      schema: {
        type: 'string',
        description:
          endpoint.streamDescription ?? 'events `chunk` {delta}, then `done` (the reply object) or `error`',
      },
    };
  }
  const errors = Object.fromEntries(
    errorStatuses(endpoint).map((status) => [String(status), errorResponse(endpoint, status)]),
  );
  return {
    [String(endpoint.status)]: { description: endpoint.summary, content },
    ...errors,
    default: { description: 'internal_error: a fault of the daemon', content: errorContent(endpoint) },
  };
}

/** The contract's error body, by reference; OpenAI's shape under /v1; JSON-RPC's beside it for MCP. */
function errorContent(endpoint: Endpoint): JsonObject {
  const contract = { $ref: '#/components/schemas/Error' };
  const shape =
    endpoint.errorShape === 'openai'
      ? schema(OpenAiErrorBody, 'output')
      : endpoint.errorShape === 'json-rpc'
        ? { anyOf: [contract, schema(JsonRpcErrorBody, 'output')] }
        : contract;
  return { 'application/json': { schema: shape } };
}

/**
 * The endpoint's own statuses, those of its authentication, and 503 wherever the database is read (it may be
 * out of reach for a moment), in order.
 */
function errorStatuses(endpoint: Endpoint): number[] {
  const byAuth = {
    none: [],
    signature: [503],
    key: [401, 429, 503],
    admin: [401, 403, 429, 503],
  }[endpoint.auth];
  return [...new Set([...endpoint.errors, ...byAuth])].sort((left, right) => left - right);
}

function errorResponse(endpoint: Endpoint, status: number): JsonObject {
  const types = ERROR_TYPES.filter((type: ErrorType) => STATUS_BY_TYPE[type] === status);
  const response: JsonObject = { description: types.join(', '), content: errorContent(endpoint) };
  if (status === 429) {
    response['headers'] = {
      'Retry-After': { description: 'seconds to wait before retrying', schema: { type: 'integer' } },
    };
  }
  return response;
}

function operation(endpoint: Endpoint): JsonObject {
  const operation: JsonObject = {
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    parameters: parameters(endpoint),
    responses: responses(endpoint),
    security: endpoint.auth === 'key' || endpoint.auth === 'admin' ? [{ bearer: [] }] : [],
  };
  const body = requestBody(endpoint);
  if (body) operation['requestBody'] = body;
  return operation;
}

/** The OpenAPI 3.1 document, generated from the same zod schemas the daemon validates with; `serverUrl` is the daemon's own. */
export function openApiDocument(version: string, serverUrl: string): JsonObject {
  const paths: Record<string, JsonObject> = {};
  for (const endpoint of ENDPOINTS) {
    paths[endpoint.path] ??= {};
    (paths[endpoint.path] as JsonObject)[endpoint.method] = operation(endpoint);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'ckb', version, description: 'Conversational knowledge service' },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: { Error: schema(ErrorBody, 'output') },
    },
    paths,
  };
}
