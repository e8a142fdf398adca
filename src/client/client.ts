import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { Application, type CreateApplicationBody, type UpdateApplicationBody } from '../api/applications.ts';
import { Deleted, Health, type ListQuery } from '../api/common.ts';
import {
  Conversation,
  type CreateConversationBody,
  Reply,
  type UpdateConversationBody,
} from '../api/conversations.ts';
import { FileObject, PresignedUpload } from '../api/files.ts';
import { ApiKey, CreatedKey, type CreateKeyBody } from '../api/keys.ts';
import { type SearchBody, SearchResult } from '../api/search.ts';
import {
  ClearedSources,
  type CreateSourceBody,
  type EmbedStatus,
  Source,
  SourceChunk,
  type UpdateSourceBody,
} from '../api/sources.ts';
import { InvalidResponseError } from './errors.ts';
import { createTransport, pathFor, type TransportOptions } from './http.ts';
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

const Openapi = z.record(z.string(), z.unknown());

export function createClient(options: ClientOptions) {
  const transport = createTransport(options);
  const { json } = transport;

  const applications = {
    list: (query?: Paging, request?: RequestOptions) =>
      json(z.array(Application), { method: 'GET', path: '/applications', query, signal: request?.signal }),
    create: (body: ApplicationInput, request?: RequestOptions) =>
      json(Application, { method: 'POST', path: '/applications', json: body, signal: request?.signal }),
    get: (id: string, request?: RequestOptions) =>
      json(Application, { method: 'GET', path: pathFor('/applications/{id}', id), signal: request?.signal }),
    update: (id: string, body: ApplicationUpdate, request?: RequestOptions) =>
      json(Application, {
        method: 'PUT',
        path: pathFor('/applications/{id}', id),
        json: body,
        signal: request?.signal,
      }),
    delete: (id: string, request?: RequestOptions) =>
      json(Deleted, { method: 'DELETE', path: pathFor('/applications/{id}', id), signal: request?.signal }),
    conversations: (id: string, query?: Paging, request?: RequestOptions) =>
      json(z.array(Conversation), {
        method: 'GET',
        path: pathFor('/applications/{id}/conversations', id),
        query,
        signal: request?.signal,
      }),
    sources: (id: string, query?: Paging, request?: RequestOptions) =>
      json(z.array(Source), {
        method: 'GET',
        path: pathFor('/applications/{id}/sources', id),
        query,
        signal: request?.signal,
      }),
    clearSources: (id: string, request?: RequestOptions) =>
      json(ClearedSources, {
        method: 'DELETE',
        path: pathFor('/applications/{id}/sources', id),
        signal: request?.signal,
      }),
    search: (id: string, body: SearchInput, request?: RequestOptions) =>
      json(z.array(SearchResult), {
        method: 'POST',
        path: pathFor('/applications/{id}/search', id),
        json: body,
        signal: request?.signal,
      }),
  };

  const sources = {
    list: (query?: Paging & { application_id?: string; status?: EmbedStatus }, request?: RequestOptions) =>
      json(z.array(Source), { method: 'GET', path: '/sources', query, signal: request?.signal }),
    create: (body: SourceInput, request?: RequestOptions) =>
      json(Source, { method: 'POST', path: '/sources', json: body, signal: request?.signal }),
    /** Adds up to 1,000 sources in one request, all or none; returns them in order, with `content` null. */
    createMany: (bodies: SourceInput[], request?: RequestOptions) =>
      json(z.array(Source), {
        method: 'POST',
        path: '/sources/batch',
        json: { sources: bodies },
        signal: request?.signal,
      }),
    get: (id: string, request?: RequestOptions) =>
      json(Source, { method: 'GET', path: pathFor('/sources/{id}', id), signal: request?.signal }),
    /** Changes a source's name, sync interval or content; new content is ingested in place, under the same id. */
    update: (id: string, body: SourceUpdate, request?: RequestOptions) =>
      json(Source, {
        method: 'PUT',
        path: pathFor('/sources/{id}', id),
        json: body,
        signal: request?.signal,
      }),
    /** Reads a url, urls or website source again; pages the server says are unchanged are not read again. */
    sync: (id: string, request?: RequestOptions) =>
      json(Source, { method: 'POST', path: pathFor('/sources/{id}/sync', id), signal: request?.signal }),
    delete: (id: string, request?: RequestOptions) =>
      json(Deleted, { method: 'DELETE', path: pathFor('/sources/{id}', id), signal: request?.signal }),
    chunks: (id: string, request?: RequestOptions) =>
      json(z.array(SourceChunk), {
        method: 'GET',
        path: pathFor('/sources/{id}/chunks', id),
        signal: request?.signal,
      }),
  };

  const files = {
    list: (query?: Paging, request?: RequestOptions) =>
      json(z.array(FileObject), { method: 'GET', path: '/files', query, signal: request?.signal }),
    delete: (id: string, request?: RequestOptions) =>
      json(Deleted, { method: 'DELETE', path: pathFor('/files/{id}', id), signal: request?.signal }),
    presign: (query?: { name?: string }, request?: RequestOptions) =>
      json(PresignedUpload, { method: 'GET', path: '/files/presigned-url', query, signal: request?.signal }),
    /** PUTs raw bytes to a pre-signed URL; the URL carries the authorisation, so no key is sent. */
    uploadTo: (presignedUrl: string, body: Readable | Uint8Array, length: number, request?: RequestOptions) =>
      json(FileObject, {
        method: 'PUT',
        path: presignedUrl,
        raw: { body, length },
        authenticate: false,
        signal: request?.signal,
      }),
    /** Pre-signs (named after the file) and streams a local file from disk. */
    async upload(path: string, request?: RequestOptions & { name?: string }) {
      const { size } = await stat(path);
      const { presigned_url } = await files.presign({ name: request?.name ?? basename(path) }, request);
      return files.uploadTo(presigned_url, createReadStream(path), size, request);
    },
  };

  const conversations = {
    list: (query?: Paging, request?: RequestOptions) =>
      json(z.array(Conversation), { method: 'GET', path: '/conversations', query, signal: request?.signal }),
    create: (body: ConversationInput, request?: RequestOptions) =>
      json(Reply, {
        method: 'POST',
        path: '/conversations',
        json: { ...body, stream: false },
        signal: request?.signal,
      }),
    /** Resolves once the daemon accepted the turn (HTTP errors throw here); iterate the result for events. */
    async stream(body: ConversationInput, request?: RequestOptions): Promise<ReplyStream> {
      const controller = new AbortController();
      const signal = request?.signal
        ? AbortSignal.any([request.signal, controller.signal])
        : controller.signal;
      const response = await transport.send({
        method: 'POST',
        path: '/conversations',
        json: { ...body, stream: true },
        accept: 'text/event-stream',
        signal,
      });
      const type = String(response.headers['content-type'] ?? '');
      if (!type.startsWith('text/event-stream')) {
        await response.body.dump().catch(() => undefined);
        throw new InvalidResponseError(`expected an event stream from POST /conversations, got "${type}"`);
      }
      // The stream reports a caller's abort as RequestAbortedError by looking at its own controller.
      request?.signal?.addEventListener('abort', () => controller.abort(), { once: true });
      response.body.on('error', () => undefined);
      return new ReplyStream(response.body, controller);
    },
    get: (id: string, request?: RequestOptions) =>
      json(Conversation, {
        method: 'GET',
        path: pathFor('/conversations/{id}', id),
        signal: request?.signal,
      }),
    update: (id: string, body: ConversationUpdate, request?: RequestOptions) =>
      json(Conversation, {
        method: 'PUT',
        path: pathFor('/conversations/{id}', id),
        json: body,
        signal: request?.signal,
      }),
    delete: (id: string, request?: RequestOptions) =>
      json(Deleted, { method: 'DELETE', path: pathFor('/conversations/{id}', id), signal: request?.signal }),
  };

  const keys = {
    create: (body: KeyInput, request?: RequestOptions) =>
      json(CreatedKey, { method: 'POST', path: '/admin/keys', json: body, signal: request?.signal }),
    list: (request?: RequestOptions) =>
      json(z.array(ApiKey), { method: 'GET', path: '/admin/keys', signal: request?.signal }),
    revoke: (id: string, request?: RequestOptions) =>
      json(Deleted, { method: 'DELETE', path: pathFor('/admin/keys/{id}', id), signal: request?.signal }),
  };

  return {
    url: transport.baseUrl,
    health: (request?: RequestOptions) =>
      json(Health, { method: 'GET', path: '/health', authenticate: false, signal: request?.signal }),
    openapi: (request?: RequestOptions) =>
      json(Openapi, { method: 'GET', path: '/openapi.json', authenticate: false, signal: request?.signal }),
    applications,
    sources,
    files,
    conversations,
    keys,
  };
}

export type CkbClient = ReturnType<typeof createClient>;
