import { z } from 'zod';
import { Application, CreateApplicationBody, UpdateApplicationBody } from './applications.ts';
import { Deleted, Health, ListQuery } from './common.ts';
import { Conversation, CreateConversationBody, Reply, UpdateConversationBody } from './conversations.ts';
import { FileObject, PresignedUpload, PresignQuery, UploadQuery } from './files.ts';
import { ApiKey, CreatedKey, CreateKeyBody } from './keys.ts';
import { McpMessage } from './mcp.ts';
import { ChatCompletion, ChatCompletionBody, Model, ModelList } from './openai.ts';
import { SearchBody, SearchResult } from './search.ts';
import {
  ClearedSources,
  CreateSourceBody,
  CreateSourcesBody,
  Source,
  SourceChunk,
  SourcesQuery,
  UpdateSourceBody,
} from './sources.ts';

export type HttpMethod = 'get' | 'post' | 'put' | 'delete';
export type Auth = 'none' | 'key' | 'admin' | 'signature';

/** The 4xx statuses an endpoint answers besides those of its `auth` (401 and 429, and 403 for admin keys). */
export type ErrorStatus = 400 | 403 | 404 | 409 | 413 | 415 | 502 | 503 | 507;

export interface Endpoint {
  method: HttpMethod;
  /** OpenAPI-style path, `{id}` for parameters. */
  path: string;
  /** A stable name for generated clients. */
  operationId: string;
  errors: readonly ErrorStatus[];
  summary: string;
  auth: Auth;
  status: 200 | 201;
  query?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
  /** The body is raw bytes rather than JSON. */
  rawBody?: true;
  /** The response may be a text/event-stream of `chunk`, `done` and `error` events. */
  streams?: true;
  /** What the event stream carries, when it is not the contract's events. */
  streamDescription?: string;
  /**
   * Errors in OpenAI's shape rather than the contract's (the OpenAI-compatible API), or, for MCP, the
   * protocol's JSON-RPC errors besides the contract's.
   */
  errorShape?: 'openai' | 'json-rpc';
}

/**
 * Every endpoint of the service: the OpenAPI document, the daemon's routes and 405 handling, and the client's
 * calls all come from this list. `as const` keeps each entry's literal path and its schemas' own types, so
 * `endpoint(operationId)` can hand them out typed.
 */
const TABLE = [
  {
    method: 'get',
    path: '/health',
    operationId: 'getHealth',
    errors: [503],
    summary: 'Health: the database, LanceDB and the ingestion queue',
    auth: 'none',
    status: 200,
    response: Health,
  },
  {
    method: 'get',
    path: '/openapi.json',
    operationId: 'getOpenApi',
    errors: [],
    summary: 'This document',
    auth: 'none',
    status: 200,
    // Any JSON object: the client hands the document over as the daemon sent it.
    response: z.looseObject({}),
  },

  {
    method: 'get',
    path: '/applications',
    operationId: 'listApplications',
    errors: [400],
    summary: 'List applications',
    auth: 'key',
    status: 200,
    query: ListQuery,
    response: z.array(Application),
  },
  {
    method: 'post',
    path: '/applications',
    operationId: 'createApplication',
    errors: [400, 413],
    summary: 'Create an application',
    auth: 'key',
    status: 201,
    body: CreateApplicationBody,
    response: Application,
  },
  {
    method: 'get',
    path: '/applications/{id}',
    operationId: 'getApplication',
    errors: [404],
    summary: 'Get an application',
    auth: 'key',
    status: 200,
    response: Application,
  },
  {
    method: 'put',
    path: '/applications/{id}',
    operationId: 'updateApplication',
    errors: [400, 404, 413],
    summary: 'Update an application',
    auth: 'key',
    status: 200,
    body: UpdateApplicationBody,
    response: Application,
  },
  {
    method: 'delete',
    path: '/applications/{id}',
    operationId: 'deleteApplication',
    errors: [404],
    summary: 'Delete an application with its sources and conversations',
    auth: 'key',
    status: 200,
    response: Deleted,
  },
  {
    method: 'get',
    path: '/applications/{id}/conversations',
    operationId: 'listApplicationConversations',
    errors: [400, 404],
    summary: "List an application's conversations",
    auth: 'key',
    status: 200,
    query: ListQuery,
    response: z.array(Conversation),
  },
  {
    method: 'get',
    path: '/applications/{id}/sources',
    operationId: 'listApplicationSources',
    errors: [400, 404],
    summary: "List an application's sources",
    auth: 'key',
    status: 200,
    query: ListQuery,
    response: z.array(Source),
  },
  {
    method: 'delete',
    path: '/applications/{id}/sources',
    operationId: 'clearApplicationSources',
    errors: [404],
    summary: "Delete all of an application's sources",
    auth: 'key',
    status: 200,
    response: ClearedSources,
  },
  {
    method: 'post',
    path: '/applications/{id}/search',
    operationId: 'searchApplication',
    errors: [400, 404, 413, 502],
    summary: 'Retrieve passages without a language model',
    auth: 'key',
    status: 200,
    body: SearchBody,
    response: z.array(SearchResult),
  },

  {
    method: 'get',
    path: '/sources',
    operationId: 'listSources',
    errors: [400, 404],
    summary: 'List sources',
    auth: 'key',
    status: 200,
    query: SourcesQuery.extend(ListQuery.shape),
    response: z.array(Source),
  },
  {
    method: 'post',
    path: '/sources',
    operationId: 'createSource',
    errors: [400, 404, 413],
    summary: 'Add a source (ingested in the background)',
    auth: 'key',
    status: 201,
    body: CreateSourceBody,
    response: Source,
  },
  {
    method: 'post',
    path: '/sources/batch',
    operationId: 'createSources',
    errors: [400, 404, 413],
    summary:
      'Add up to 1,000 sources at once, all or none (ext); in the given order, with content null as in lists',
    auth: 'key',
    status: 201,
    body: CreateSourcesBody,
    response: z.array(Source),
  },
  {
    method: 'get',
    path: '/sources/{id}',
    operationId: 'getSource',
    errors: [404],
    summary: 'Get a source',
    auth: 'key',
    status: 200,
    response: Source,
  },
  {
    method: 'put',
    path: '/sources/{id}',
    operationId: 'updateSource',
    errors: [400, 404, 413],
    summary:
      'Update a source (ext): its name, sync_interval, or content, ingested anew in place (same id); the current chunks stay searchable until the new ones replace them in one step',
    auth: 'key',
    status: 200,
    body: UpdateSourceBody,
    response: Source,
  },
  {
    method: 'post',
    path: '/sources/{id}/sync',
    operationId: 'syncSource',
    errors: [400, 404],
    summary:
      'Read a url, urls or website source again (ext): pages the server says are unchanged keep their chunks; 400 for text and file sources, which change by PUT',
    auth: 'key',
    status: 200,
    response: Source,
  },
  {
    method: 'delete',
    path: '/sources/{id}',
    operationId: 'deleteSource',
    errors: [404],
    summary: 'Delete a source and its chunks',
    auth: 'key',
    status: 200,
    response: Deleted,
  },
  {
    method: 'get',
    path: '/sources/{id}/chunks',
    operationId: 'listSourceChunks',
    errors: [404],
    summary: "A source's stored chunks, in order",
    auth: 'key',
    status: 200,
    response: z.array(SourceChunk),
  },

  {
    method: 'get',
    path: '/files',
    operationId: 'listFiles',
    errors: [400],
    summary: 'List uploaded files',
    auth: 'key',
    status: 200,
    query: ListQuery,
    response: z.array(FileObject),
  },
  {
    method: 'delete',
    path: '/files/{id}',
    operationId: 'deleteFile',
    errors: [404, 409],
    summary: 'Delete an uploaded file that no source uses (409 names the sources that do)',
    auth: 'key',
    status: 200,
    response: Deleted,
  },
  {
    method: 'get',
    path: '/files/presigned-url',
    operationId: 'presignUpload',
    errors: [400, 415],
    summary: 'Get a pre-signed upload address',
    auth: 'key',
    status: 200,
    query: PresignQuery,
    response: PresignedUpload,
  },
  {
    method: 'put',
    path: '/files/upload/{id}',
    operationId: 'uploadFile',
    errors: [400, 403, 413, 415],
    summary: 'Upload a file to a pre-signed address',
    auth: 'signature',
    status: 200,
    query: UploadQuery,
    rawBody: true,
    response: FileObject,
  },

  {
    method: 'get',
    path: '/conversations',
    operationId: 'listConversations',
    errors: [400],
    summary: 'List conversations',
    auth: 'key',
    status: 200,
    query: ListQuery,
    response: z.array(Conversation),
  },
  {
    method: 'post',
    path: '/conversations',
    operationId: 'createConversationTurn',
    errors: [400, 404, 413, 502],
    summary: 'Start or continue a conversation',
    auth: 'key',
    status: 200,
    body: CreateConversationBody,
    response: Reply,
    streams: true,
  },
  {
    method: 'get',
    path: '/conversations/{id}',
    operationId: 'getConversation',
    errors: [404],
    summary: 'Get a conversation with its messages',
    auth: 'key',
    status: 200,
    response: Conversation,
  },
  {
    method: 'put',
    path: '/conversations/{id}',
    operationId: 'updateConversation',
    errors: [400, 404, 413],
    summary: 'Rename a conversation',
    auth: 'key',
    status: 200,
    body: UpdateConversationBody,
    response: Conversation,
  },
  {
    method: 'delete',
    path: '/conversations/{id}',
    operationId: 'deleteConversation',
    errors: [404],
    summary: 'Delete a conversation and its messages',
    auth: 'key',
    status: 200,
    response: Deleted,
  },

  {
    method: 'post',
    path: '/admin/keys',
    operationId: 'createKey',
    errors: [400, 413],
    summary: 'Create an API key (and its account if new)',
    auth: 'admin',
    status: 201,
    body: CreateKeyBody,
    response: CreatedKey,
  },
  {
    method: 'get',
    path: '/admin/keys',
    operationId: 'listKeys',
    errors: [],
    summary: 'List API keys',
    auth: 'admin',
    status: 200,
    response: z.array(ApiKey),
  },
  {
    method: 'delete',
    path: '/admin/keys/{id}',
    operationId: 'revokeKey',
    errors: [404],
    summary: 'Revoke an API key',
    auth: 'admin',
    status: 200,
    response: Deleted,
  },

  {
    method: 'post',
    path: '/mcp',
    operationId: 'postMcpMessage',
    errors: [400],
    summary:
      "The Model Context Protocol over Streamable HTTP (stateless): the same tools as `ckb mcp`, for the key's account",
    auth: 'key',
    status: 200,
    body: McpMessage,
    response: McpMessage,
    streams: true,
    streamDescription:
      'JSON-RPC messages of the Model Context Protocol, as its Streamable HTTP transport sends them',
    errorShape: 'json-rpc',
  },

  {
    method: 'get',
    path: '/v1/models',
    operationId: 'listModels',
    errors: [],
    summary: "OpenAI-compatible: the account's applications as models (id = application id)",
    auth: 'key',
    status: 200,
    response: ModelList,
    errorShape: 'openai',
  },
  {
    method: 'get',
    path: '/v1/models/{id}',
    operationId: 'getModel',
    errors: [404],
    summary: 'OpenAI-compatible: one application as a model',
    auth: 'key',
    status: 200,
    response: Model,
    errorShape: 'openai',
  },
  {
    method: 'post',
    path: '/v1/chat/completions',
    operationId: 'createChatCompletion',
    errors: [400, 404, 413, 502],
    summary:
      'OpenAI-compatible: answer the messages from the sources of the application named by `model`; nothing is stored',
    auth: 'key',
    status: 200,
    body: ChatCompletionBody,
    response: ChatCompletion,
    streams: true,
    streamDescription:
      '`data:` lines of chat.completion.chunk objects (the last with `usage` when `stream_options.include_usage`), then `data: [DONE]`; on failure a `data:` line with an OpenAI error object',
    errorShape: 'openai',
  },
] as const satisfies readonly Endpoint[];

export const ENDPOINTS: readonly Endpoint[] = TABLE;

export type OperationId = (typeof TABLE)[number]['operationId'];
export type EndpointOf<Id extends OperationId> = Extract<(typeof TABLE)[number], { operationId: Id }>;

/** The names of a path's parameters: `'id'` for `/sources/{id}`. */
export type PathParameter<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? Name | PathParameter<Rest>
  : never;

const BY_OPERATION_ID = new Map<string, Endpoint>(TABLE.map((entry) => [entry.operationId, entry]));

export function endpoint<Id extends OperationId>(operationId: Id): EndpointOf<Id> {
  // The map is built from TABLE, so the entry found is the one whose type EndpointOf picks.
  return BY_OPERATION_ID.get(operationId) as EndpointOf<Id>;
}

/** The path of a request to an endpoint: its `{…}` parameters filled in, URL-encoded. */
export function pathOf(entry: Endpoint, params: Record<string, string> = {}): string {
  return entry.path.replace(/\{(\w+)\}/g, (_match, name: string) => encodeURIComponent(params[name] ?? ''));
}
