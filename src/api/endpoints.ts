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
} from './sources.ts';

export type HttpMethod = 'get' | 'post' | 'put' | 'delete';
export type Auth = 'none' | 'key' | 'admin' | 'signature';

export interface Endpoint {
  method: HttpMethod;
  /** OpenAPI-style path, `{id}` for parameters. */
  path: string;
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
  errors?: 'openai' | 'json-rpc';
}

/** Every endpoint of the service: the OpenAPI document and the daemon's 405 handling both come from this list. */
export const ENDPOINTS: readonly Endpoint[] = [
  { method: 'get', path: '/health', summary: 'Liveness', auth: 'none', status: 200, response: Health },
  {
    method: 'get',
    path: '/openapi.json',
    summary: 'This document',
    auth: 'none',
    status: 200,
    response: z.object({}),
  },

  {
    method: 'get',
    path: '/applications',
    summary: 'List applications',
    auth: 'key',
    status: 200,
    query: ListQuery,
    response: z.array(Application),
  },
  {
    method: 'post',
    path: '/applications',
    summary: 'Create an application',
    auth: 'key',
    status: 201,
    body: CreateApplicationBody,
    response: Application,
  },
  {
    method: 'get',
    path: '/applications/{id}',
    summary: 'Get an application',
    auth: 'key',
    status: 200,
    response: Application,
  },
  {
    method: 'put',
    path: '/applications/{id}',
    summary: 'Update an application',
    auth: 'key',
    status: 200,
    body: UpdateApplicationBody,
    response: Application,
  },
  {
    method: 'delete',
    path: '/applications/{id}',
    summary: 'Delete an application with its sources and conversations',
    auth: 'key',
    status: 200,
    response: Deleted,
  },
  {
    method: 'get',
    path: '/applications/{id}/conversations',
    summary: "List an application's conversations",
    auth: 'key',
    status: 200,
    query: ListQuery,
    response: z.array(Conversation),
  },
  {
    method: 'get',
    path: '/applications/{id}/sources',
    summary: "List an application's sources",
    auth: 'key',
    status: 200,
    query: ListQuery,
    response: z.array(Source),
  },
  {
    method: 'delete',
    path: '/applications/{id}/sources',
    summary: "Delete all of an application's sources",
    auth: 'key',
    status: 200,
    response: ClearedSources,
  },
  {
    method: 'post',
    path: '/applications/{id}/search',
    summary: 'Retrieve passages without a language model',
    auth: 'key',
    status: 200,
    body: SearchBody,
    response: z.array(SearchResult),
  },

  {
    method: 'get',
    path: '/sources',
    summary: 'List sources',
    auth: 'key',
    status: 200,
    query: SourcesQuery.extend(ListQuery.shape),
    response: z.array(Source),
  },
  {
    method: 'post',
    path: '/sources',
    summary: 'Add a source (ingested in the background)',
    auth: 'key',
    status: 201,
    body: CreateSourceBody,
    response: Source,
  },
  {
    method: 'post',
    path: '/sources/batch',
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
    summary: 'Get a source',
    auth: 'key',
    status: 200,
    response: Source,
  },
  {
    method: 'delete',
    path: '/sources/{id}',
    summary: 'Delete a source and its chunks',
    auth: 'key',
    status: 200,
    response: Deleted,
  },
  {
    method: 'get',
    path: '/sources/{id}/chunks',
    summary: "A source's stored chunks, in order",
    auth: 'key',
    status: 200,
    response: z.array(SourceChunk),
  },

  {
    method: 'get',
    path: '/files',
    summary: 'List uploaded files',
    auth: 'key',
    status: 200,
    query: ListQuery,
    response: z.array(FileObject),
  },
  {
    method: 'get',
    path: '/files/presigned-url',
    summary: 'Get a pre-signed upload address',
    auth: 'key',
    status: 200,
    query: PresignQuery,
    response: PresignedUpload,
  },
  {
    method: 'put',
    path: '/files/upload/{id}',
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
    summary: 'List conversations',
    auth: 'key',
    status: 200,
    query: ListQuery,
    response: z.array(Conversation),
  },
  {
    method: 'post',
    path: '/conversations',
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
    summary: 'Get a conversation with its messages',
    auth: 'key',
    status: 200,
    response: Conversation,
  },
  {
    method: 'put',
    path: '/conversations/{id}',
    summary: 'Rename a conversation',
    auth: 'key',
    status: 200,
    body: UpdateConversationBody,
    response: Conversation,
  },
  {
    method: 'delete',
    path: '/conversations/{id}',
    summary: 'Delete a conversation and its messages',
    auth: 'key',
    status: 200,
    response: Deleted,
  },

  {
    method: 'post',
    path: '/admin/keys',
    summary: 'Create an API key (and its account if new)',
    auth: 'admin',
    status: 201,
    body: CreateKeyBody,
    response: CreatedKey,
  },
  {
    method: 'get',
    path: '/admin/keys',
    summary: 'List API keys',
    auth: 'admin',
    status: 200,
    response: z.array(ApiKey),
  },
  {
    method: 'delete',
    path: '/admin/keys/{id}',
    summary: 'Revoke an API key',
    auth: 'admin',
    status: 200,
    response: Deleted,
  },

  {
    method: 'post',
    path: '/mcp',
    summary:
      "The Model Context Protocol over Streamable HTTP (stateless): the same tools as `ckb mcp`, for the key's account",
    auth: 'key',
    status: 200,
    body: McpMessage,
    response: McpMessage,
    streams: true,
    streamDescription:
      'JSON-RPC messages of the Model Context Protocol, as its Streamable HTTP transport sends them',
    errors: 'json-rpc',
  },

  {
    method: 'get',
    path: '/v1/models',
    summary: "OpenAI-compatible: the account's applications as models (id = application id)",
    auth: 'key',
    status: 200,
    response: ModelList,
    errors: 'openai',
  },
  {
    method: 'get',
    path: '/v1/models/{id}',
    summary: 'OpenAI-compatible: one application as a model',
    auth: 'key',
    status: 200,
    response: Model,
    errors: 'openai',
  },
  {
    method: 'post',
    path: '/v1/chat/completions',
    summary:
      'OpenAI-compatible: answer the messages from the sources of the application named by `model`; nothing is stored',
    auth: 'key',
    status: 200,
    body: ChatCompletionBody,
    response: ChatCompletion,
    streams: true,
    streamDescription:
      '`data:` lines of chat.completion.chunk objects (the last with `usage` when `stream_options.include_usage`), then `data: [DONE]`; on failure a `data:` line with an OpenAI error object',
    errors: 'openai',
  },
];
