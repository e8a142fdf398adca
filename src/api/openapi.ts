import { z } from 'zod';
import { ENDPOINTS, type Endpoint } from './endpoints.ts';
import { ErrorBody } from './errors.ts';
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

function errorSchema(endpoint: Endpoint): JsonObject {
  if (endpoint.errors === 'openai') return schema(OpenAiErrorBody, 'output');
  if (endpoint.errors === 'json-rpc') return schema(z.union([ErrorBody, JsonRpcErrorBody]), 'output');
  return schema(ErrorBody, 'output');
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
  const error = {
    description: 'Error',
    content: { 'application/json': { schema: errorSchema(endpoint) } },
  };
  return { [String(endpoint.status)]: { description: endpoint.summary, content }, default: error };
}

function operation(endpoint: Endpoint): JsonObject {
  const operation: JsonObject = {
    summary: endpoint.summary,
    parameters: parameters(endpoint),
    responses: responses(endpoint),
    security: endpoint.auth === 'key' || endpoint.auth === 'admin' ? [{ bearer: [] }] : [],
  };
  const body = requestBody(endpoint);
  if (body) operation['requestBody'] = body;
  return operation;
}

/** The OpenAPI 3.1 document, generated from the same zod schemas the daemon validates with. */
export function openApiDocument(version: string): JsonObject {
  const paths: Record<string, JsonObject> = {};
  for (const endpoint of ENDPOINTS) {
    paths[endpoint.path] ??= {};
    (paths[endpoint.path] as JsonObject)[endpoint.method] = operation(endpoint);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'ckb', version, description: 'Conversational knowledge service' },
    servers: [{ url: 'http://127.0.0.1:7411' }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    paths,
  };
}
