import { createHash } from 'node:crypto';
import type { ListQuery } from '../../src/api/common.ts';
import {
  type ClearedSources,
  type CreateSourceBody,
  type EmbedStatus,
  type Source,
  type SourceChunk,
  SourceContent,
  SYNCABLE_TYPES,
  type UpdateSourceBody,
} from '../../src/api/sources.ts';
import { type Clock, timestamp } from '../clock.ts';
import { invalidRequest, notFound } from '../errors.ts';
import { newId } from '../ids.ts';
import type { Store } from '../store/index.ts';
import type { AccountRecord, SourceRecord, SourceSummary } from '../store/records.ts';
import { contentOf, laneOf, uploadedFileId } from '../store/source-content.ts';
import type { NewContent, NewSource } from '../store/sources.ts';
import { findApplication } from './applications.ts';
import type { FileService } from './files.ts';
import type { Ingestion } from './ingestion.ts';
import type { Caller } from './keys.ts';
import type { StorageQuota } from './storage-quota.ts';

export function toSource(record: SourceSummary | SourceRecord): Source {
  return {
    id: record.id,
    application_id: record.application_id,
    name: record.name,
    type: record.type,
    content: 'content' in record ? record.content : null,
    embed_status: record.embed_status,
    embed_status_message: record.embed_status_message,
    chunks: record.chunks,
    pages: record.pages,
    characters: record.characters,
    content_hash: record.content_hash,
    sync_interval: record.sync_interval,
    attempts: record.attempts,
    last_error: record.last_error,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

function isSyncable(source: Pick<SourceRecord, 'type'>): boolean {
  return (SYNCABLE_TYPES as readonly string[]).includes(source.type);
}

/** A text's content hash: SHA-256 of its UTF-8, as a client can compute it. */
export function textHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export type SourceService = ReturnType<typeof createSourceService>;

export function createSourceService(deps: {
  store: Store;
  clock: Clock;
  files: FileService;
  ingestion: Ingestion;
  quota: StorageQuota;
}) {
  const { store, clock, files, ingestion, quota } = deps;

  async function find(account: AccountRecord, id: string): Promise<SourceRecord> {
    const record = await store.sources.find(account.id, id);
    if (!record) throw notFound('source', id);
    return record;
  }

  /** A new source, with the size its job is ordered by: a text's length, an uploaded file's bytes. */
  async function newSource(
    caller: Caller,
    body: CreateSourceBody,
    paramPrefix: string,
    now: string,
  ): Promise<NewSource> {
    const { account } = caller;
    const content = contentOf(body);
    const fileId = uploadedFileId(content);
    let size = 0;
    let hash: string | null = null;
    if (content.type === 'text') {
      size = content.content.length;
      hash = textHash(content.content);
    }
    if (fileId !== undefined) {
      const file = await files.find(account, fileId, `${paramPrefix}content`);
      size = file.bytes;
      hash = file.sha256;
    }
    const record: SourceRecord = {
      id: newId('src'),
      account_id: account.id,
      application_id: body.application_id,
      name: body.name,
      ...content,
      embed_status: 'PENDING',
      embed_status_message: '',
      chunks: 0,
      pages: 0,
      characters: 0,
      embedder: null,
      allow_private_addresses: caller.key.admin,
      content_hash: hash,
      sync_interval: 'sync_interval' in body ? (body.sync_interval ?? null) : null,
      attempts: 0,
      last_error: '',
      created_at: now,
      updated_at: now,
    };
    return { record, lane: laneOf(content), size };
  }

  /** Adds the sources with their jobs in one transaction (all or none), then wakes ingestion. */
  async function addAll(
    caller: Caller,
    bodies: CreateSourceBody[],
    paramPrefix: (position: number) => string,
  ): Promise<SourceRecord[]> {
    const { account } = caller;
    // One time for the whole batch: the queue takes a batch's sources largest first (store/jobs.ts).
    const now = timestamp(clock);
    const sources: NewSource[] = [];
    for (const [position, body] of bodies.entries())
      sources.push(await newSource(caller, body, paramPrefix(position), now));
    await quota.check(
      account.id,
      bodies.reduce((sum, body) => sum + (body.type === 'text' ? Buffer.byteLength(body.content) : 0), 0),
    );
    await store.sources.insert(account.id, sources, (position) => `${paramPrefix(position)}application_id`);
    ingestion.wake();
    return sources.map((source) => source.record);
  }

  async function list(
    account: AccountRecord,
    filter: {
      applicationId?: string | undefined;
      status?: EmbedStatus | undefined;
      /** The request's field that named the application, if it came in one (not in the path). */
      param?: string;
    },
    query: ListQuery,
  ): Promise<Source[]> {
    if (filter.applicationId !== undefined)
      await findApplication(store, account, filter.applicationId, filter.param);
    return (await store.sources.list(account.id, filter, query)).map(toSource);
  }

  /** New content for a source, checked against its type, with its hash when it is known before reading. */
  async function newContent(
    account: AccountRecord,
    source: SourceRecord,
    value: unknown,
  ): Promise<NewContent> {
    const parsed = SourceContent.safeParse({ type: source.type, content: value });
    if (!parsed.success) {
      const message = parsed.error.issues[0]?.message ?? 'invalid content';
      throw invalidRequest(
        `${message.startsWith('content') ? '' : 'content: '}${message} (for a ${source.type} source)`,
        'content',
      );
    }
    const content = parsed.data;
    if (content.type === 'text')
      return { value: content, hash: textHash(content.content), lane: 'local', size: content.content.length };
    const fileId = uploadedFileId(content);
    if (fileId !== undefined) {
      const file = await files.find(account, fileId, 'content');
      return { value: content, hash: file.sha256, lane: 'local', size: file.bytes };
    }
    return { value: content, hash: null, lane: laneOf(content), size: 0 };
  }

  function checkUpdate(source: SourceRecord, body: UpdateSourceBody): void {
    if (body.type !== undefined && body.type !== source.type) {
      throw invalidRequest(
        `source ${source.id} is a ${source.type} source, and a source's type cannot change; add a new source instead`,
        'type',
      );
    }
    if (typeof body.sync_interval === 'number' && !isSyncable(source)) {
      throw invalidRequest(
        `only url, urls and website sources are synced periodically; a ${source.type} source changes when you update it (PUT /sources/{id})`,
        'sync_interval',
      );
    }
  }

  /** After a delete commits: stop ingesting the sources, and remove their chunks from LanceDB. */
  function afterDelete(ids: string[]): void {
    ingestion.cancel(ids);
    store.purges.soon();
  }

  return {
    list(
      account: AccountRecord,
      query: ListQuery & { application_id?: string | undefined; status?: EmbedStatus | undefined },
    ): Promise<Source[]> {
      const filter = { applicationId: query.application_id, status: query.status, param: 'application_id' };
      return list(account, filter, query);
    },

    listForApplication(account: AccountRecord, applicationId: string, query: ListQuery): Promise<Source[]> {
      return list(account, { applicationId }, query);
    },

    /** Adds a source; the caller's key decides whether it may fetch private addresses (private-addresses.ts). */
    async create(caller: Caller, body: CreateSourceBody): Promise<Source> {
      const [record] = await addAll(caller, [body], () => '');
      return toSource(record!);
    },

    /** Adds every source or none; a problem is reported with the position of the source it is in. */
    async createMany(caller: Caller, bodies: CreateSourceBody[]): Promise<Source[]> {
      const records = await addAll(caller, bodies, (position) => `sources.${position}.`);
      return records.map(({ content: _, ...summary }) => toSource(summary));
    },

    async get(account: AccountRecord, id: string): Promise<Source> {
      return toSource(await find(account, id));
    },

    /** The chunks searches see: those of the source's live generation, in order. */
    async chunks(account: AccountRecord, id: string): Promise<SourceChunk[]> {
      await find(account, id);
      const generation = await store.sources.liveGeneration(id);
      if (generation === undefined) return [];
      const chunks = await store.chunks.list(id, generation);
      return chunks.map(({ index, page, text, url }) =>
        url ? { index, page, text, url } : { index, page, text },
      );
    },

    /**
     * Changes a source's name, sync interval or content. New content is ingested in the background while the
     * current chunks stay searchable; they are swapped in one step once the new ones are stored.
     */
    async update(account: AccountRecord, id: string, body: UpdateSourceBody): Promise<Source> {
      const source = await find(account, id);
      checkUpdate(source, body);
      const content =
        body.content === undefined ? undefined : await newContent(account, source, body.content);
      if (source.type === 'text' && content?.value.type === 'text') {
        const growth = Buffer.byteLength(content.value.content) - Buffer.byteLength(source.content);
        if (growth > 0) await quota.check(account.id, growth);
      }
      const updated = await store.sources.update(
        account.id,
        id,
        { name: body.name, content, syncInterval: body.sync_interval },
        clock.now().getTime(),
        timestamp(clock),
      );
      if (!updated) throw notFound('source', id);
      if (updated.queued) ingestion.supersede(id, updated.supersededUpTo);
      if (updated.queued || body.sync_interval !== undefined) ingestion.wake();
      return toSource(updated.record);
    },

    /** Reads a web source again (conditionally: pages the server says are unchanged are not read again). */
    async sync(account: AccountRecord, id: string): Promise<Source> {
      const source = await find(account, id);
      if (!isSyncable(source)) {
        const how =
          source.type === 'text'
            ? 'to change it, PUT /sources/{id} with the new text (ckb source update ID --text …)'
            : 'to refresh it, PUT /sources/{id} with a new file_id (ckb source update ID --file PATH)';
        throw invalidRequest(`source ${id} is a ${source.type} source, which has nothing to sync; ${how}`);
      }
      const synced = await store.sources.requestSync(account.id, id, clock.now().getTime(), timestamp(clock));
      if (!synced) throw notFound('source', id);
      if (synced.queued) ingestion.wake();
      return toSource(synced.record);
    },

    async remove(account: AccountRecord, id: string): Promise<{ id: string; deleted: true }> {
      const deleted = await store.sources.delete(account.id, [id], timestamp(clock));
      if (deleted.length === 0) throw notFound('source', id);
      afterDelete(deleted);
      return { id, deleted: true };
    },

    async clear(account: AccountRecord, applicationId: string): Promise<ClearedSources> {
      const application = await findApplication(store, account, applicationId);
      const deleted = await store.sources.deleteAllOf(account.id, application.id, timestamp(clock));
      afterDelete(deleted);
      return { application_id: application.id, deleted: deleted.length };
    },
  };
}
