import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import type { z } from 'zod';
import type { CreateApplicationBody, UpdateApplicationBody } from '../api/applications.ts';
import type { ListQuery } from '../api/common.ts';
import type { CreateConversationBody, UpdateConversationBody } from '../api/conversations.ts';
import { endpoint, pathOf } from '../api/endpoints.ts';
import type { CreateKeyBody } from '../api/keys.ts';
import type { SearchBody } from '../api/search.ts';
import type { CreateSourceBody, EmbedStatus, UpdateSourceBody } from '../api/sources.ts';
import { createCall, methodOf, sendsKey } from './call.ts';
import { InvalidResponseError } from './errors.ts';
import { createTransport, type TransportOptions } from './http.ts';
import { ReplyStream } from './stream.ts';

export type ClientOptions = TransportOptions;

/** Bodies as a caller writes them: fields with defaults may be left out. */
export type ApplicationInput = z.input<typeof CreateApplicationBody>;
export type ApplicationUpdate = z.input<typeof UpdateApplicationBody>;
export type SourceInput = z.input<typeof CreateSourceBody>;
export type SourceUpdate = z.input<typeof UpdateSourceBody>;
export type ConversationInput = Omit<z.input<typeof CreateConversationBody>, 'stream'>;
export type ConversationUpdate = z.input<typeof UpdateConversationBody>;
export type SearchInput = z.input<typeof SearchBody>;
export type KeyInput = z.input<typeof CreateKeyBody>;
export type Paging = ListQuery;

export interface RequestOptions {
  signal?: AbortSignal | undefined;
}

export function createClient(options: ClientOptions) {
  const transport = createTransport(options);
  const call = createCall(transport);

  const applications = {
    list: (query?: Paging, request?: RequestOptions) =>
      call('listApplications', { query, signal: request?.signal }),
    create: (body: ApplicationInput, request?: RequestOptions) =>
      call('createApplication', { json: body, signal: request?.signal }),
    get: (id: string, request?: RequestOptions) =>
      call('getApplication', { params: { id }, signal: request?.signal }),
    update: (id: string, body: ApplicationUpdate, request?: RequestOptions) =>
      call('updateApplication', { params: { id }, json: body, signal: request?.signal }),
    delete: (id: string, request?: RequestOptions) =>
      call('deleteApplication', { params: { id }, signal: request?.signal }),
    conversations: (id: string, query?: Paging, request?: RequestOptions) =>
      call('listApplicationConversations', { params: { id }, query, signal: request?.signal }),
    sources: (id: string, query?: Paging, request?: RequestOptions) =>
      call('listApplicationSources', { params: { id }, query, signal: request?.signal }),
    clearSources: (id: string, request?: RequestOptions) =>
      call('clearApplicationSources', { params: { id }, signal: request?.signal }),
    search: (id: string, body: SearchInput, request?: RequestOptions) =>
      call('searchApplication', { params: { id }, json: body, signal: request?.signal }),
  };

  const sources = {
    list: (query?: Paging & { application_id?: string; status?: EmbedStatus }, request?: RequestOptions) =>
      call('listSources', { query, signal: request?.signal }),
    create: (body: SourceInput, request?: RequestOptions) =>
      call('createSource', { json: body, signal: request?.signal }),
    /** Adds up to 1,000 sources in one request, all or none; returns them in order, with `content` null. */
    createMany: (bodies: SourceInput[], request?: RequestOptions) =>
      call('createSources', { json: { sources: bodies }, signal: request?.signal }),
    get: (id: string, request?: RequestOptions) =>
      call('getSource', { params: { id }, signal: request?.signal }),
    /** Changes a source's name, sync interval or content; new content is ingested in place, under the same id. */
    update: (id: string, body: SourceUpdate, request?: RequestOptions) =>
      call('updateSource', { params: { id }, json: body, signal: request?.signal }),
    /** Reads a url, urls or website source again; pages the server says are unchanged are not read again. */
    sync: (id: string, request?: RequestOptions) =>
      call('syncSource', { params: { id }, signal: request?.signal }),
    delete: (id: string, request?: RequestOptions) =>
      call('deleteSource', { params: { id }, signal: request?.signal }),
    chunks: (id: string, request?: RequestOptions) =>
      call('listSourceChunks', { params: { id }, signal: request?.signal }),
  };

  const files = {
    list: (query?: Paging, request?: RequestOptions) => call('listFiles', { query, signal: request?.signal }),
    delete: (id: string, request?: RequestOptions) =>
      call('deleteFile', { params: { id }, signal: request?.signal }),
    presign: (query?: { name?: string }, request?: RequestOptions) =>
      call('presignUpload', { query, signal: request?.signal }),
    /** PUTs raw bytes to a pre-signed URL; the URL carries the authorisation, so no key is sent. */
    uploadTo: (
      presignedUrl: string,
      body: Readable | Uint8Array,
      length: number,
      request?: RequestOptions,
    ) => {
      const upload = endpoint('uploadFile');
      return transport.json(upload.response, {
        method: methodOf(upload),
        path: presignedUrl,
        raw: { body, length },
        authenticate: sendsKey(upload),
        signal: request?.signal,
      });
    },
    /** Pre-signs (named after the file) and streams a local file from disk. */
    async upload(path: string, request?: RequestOptions & { name?: string }) {
      const { size } = await stat(path);
      const { presigned_url } = await files.presign({ name: request?.name ?? basename(path) }, request);
      return files.uploadTo(presigned_url, createReadStream(path), size, request);
    },
  };

  const conversations = {
    list: (query?: Paging, request?: RequestOptions) =>
      call('listConversations', { query, signal: request?.signal }),
    create: (body: ConversationInput, request?: RequestOptions) =>
      call('createConversationTurn', { json: { ...body, stream: false }, signal: request?.signal }),
    /** Resolves once the daemon accepted the turn (HTTP errors throw here); iterate the result for events. */
    async stream(body: ConversationInput, request?: RequestOptions): Promise<ReplyStream> {
      const controller = new AbortController();
      const signal = request?.signal
        ? AbortSignal.any([request.signal, controller.signal])
        : controller.signal;
      const turn = endpoint('createConversationTurn');
      const response = await transport.send({
        method: methodOf(turn),
        path: pathOf(turn),
        json: { ...body, stream: true },
        accept: 'text/event-stream',
        signal,
      });
      const type = String(response.headers['content-type'] ?? '');
      if (!type.startsWith('text/event-stream')) {
        await response.body.dump().catch(() => undefined);
        throw new InvalidResponseError(
          `expected an event stream from ${methodOf(turn)} ${pathOf(turn)}, got "${type}"`,
        );
      }
      // The stream reports a caller's abort as RequestAbortedError by looking at its own controller.
      request?.signal?.addEventListener('abort', () => controller.abort(), { once: true });
      response.body.on('error', () => undefined);
      return new ReplyStream(response.body, controller);
    },
    get: (id: string, request?: RequestOptions) =>
      call('getConversation', { params: { id }, signal: request?.signal }),
    update: (id: string, body: ConversationUpdate, request?: RequestOptions) =>
      call('updateConversation', { params: { id }, json: body, signal: request?.signal }),
    delete: (id: string, request?: RequestOptions) =>
      call('deleteConversation', { params: { id }, signal: request?.signal }),
  };

  const keys = {
    create: (body: KeyInput, request?: RequestOptions) =>
      call('createKey', { json: body, signal: request?.signal }),
    list: (request?: RequestOptions) => call('listKeys', { signal: request?.signal }),
    revoke: (id: string, request?: RequestOptions) =>
      call('revokeKey', { params: { id }, signal: request?.signal }),
  };

  return {
    url: transport.baseUrl,
    health: (request?: RequestOptions) => call('getHealth', { signal: request?.signal }),
    openapi: (request?: RequestOptions) => call('getOpenApi', { signal: request?.signal }),
    applications,
    sources,
    files,
    conversations,
    keys,
  };
}

export type CkbClient = ReturnType<typeof createClient>;
