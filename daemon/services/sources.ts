import type { ListQuery } from '../../src/api/common.ts';
import type {
  ClearedSources,
  CreateSourceBody,
  EmbedStatus,
  Source,
  SourceChunk,
} from '../../src/api/sources.ts';
import { type Clock, timestamp } from '../clock.ts';
import { notFound } from '../errors.ts';
import { newId } from '../ids.ts';
import type { ChunkIndex } from '../store/chunk-index.ts';
import type { Store } from '../store/index.ts';
import type { AccountRecord, SourceRecord } from '../store/records.ts';
import { findApplication, isLiveApplication } from './applications.ts';
import type { Deletion } from './deletion.ts';
import type { FileService } from './files.ts';
import type { Ingestion } from './ingestion.ts';
import { newestFirst } from './paging.ts';
import type { PrivateAddressGrant } from './private-addresses.ts';

export function toSource(record: SourceRecord, withContent: boolean): Source {
  return {
    id: record.id,
    application_id: record.application_id,
    name: record.name,
    type: record.type,
    content: withContent ? record.content : null,
    embed_status: record.embed_status,
    embed_status_message: record.embed_status_message,
    chunks: record.chunks,
    pages: record.pages,
    characters: record.characters,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

/** Sources whose chunks conversations and search may use. */
export function completedSources(store: Store, applicationId: string): SourceRecord[] {
  return store.sources
    .childrenOf(applicationId)
    .filter((source) => source.embed_status === 'COMPLETED' && !source.deleting);
}

export type SourceService = ReturnType<typeof createSourceService>;

export function createSourceService(deps: {
  store: Store;
  clock: Clock;
  chunkIndex: ChunkIndex;
  files: FileService;
  ingestion: Ingestion;
  deletion: Deletion;
}) {
  const { store, clock, chunkIndex, files, ingestion, deletion } = deps;

  function find(account: AccountRecord, id: string): SourceRecord {
    const record = store.sources.get(id);
    if (!record || record.account_id !== account.id || record.deleting) throw notFound('source', id);
    return record;
  }

  function ofApplication(account: AccountRecord, applicationId: string): SourceRecord[] {
    return store.sources
      .childrenOf(applicationId)
      .filter((source) => source.account_id === account.id && !source.deleting);
  }

  function newRecord(
    account: AccountRecord,
    body: CreateSourceBody,
    paramPrefix: string,
    grant: PrivateAddressGrant,
  ): SourceRecord {
    const application = findApplication(store, account, body.application_id, `${paramPrefix}application_id`);
    if (body.type === 'file' && !body.content.startsWith('http'))
      files.find(account, body.content, `${paramPrefix}content`);
    const now = timestamp(clock);
    return {
      id: newId('src'),
      account_id: account.id,
      application_id: application.id,
      name: body.name,
      type: body.type,
      content: body.content,
      embed_status: 'PENDING',
      embed_status_message: '',
      chunks: 0,
      pages: 0,
      characters: 0,
      embedder: null,
      created_at: now,
      updated_at: now,
      ...grant,
    };
  }

  /** Journals the sources in one write, then queues them; an application deleted meanwhile takes them all back. */
  async function addAll(
    account: AccountRecord,
    bodies: CreateSourceBody[],
    paramPrefix: (position: number) => string,
    grant: PrivateAddressGrant,
  ): Promise<SourceRecord[]> {
    const records = bodies.map((body, position) => newRecord(account, body, paramPrefix(position), grant));
    await store.sources.put(...records);
    const orphan = records.findIndex((record) => !isLiveApplication(store, record.application_id));
    if (orphan !== -1) {
      await deletion.deleteSources(records);
      throw notFound('application', records[orphan]!.application_id, `${paramPrefix(orphan)}application_id`);
    }
    ingestion.enqueueAll(records.map((record) => record.id));
    return records;
  }

  return {
    list(
      account: AccountRecord,
      query: ListQuery & { application_id?: string | undefined; status?: EmbedStatus | undefined },
    ): Source[] {
      const records = query.application_id
        ? ofApplication(account, findApplication(store, account, query.application_id, 'application_id').id)
        : store.sources.filter((source) => source.account_id === account.id && !source.deleting);
      const { status } = query;
      const matching = status ? records.filter((record) => record.embed_status === status) : records;
      return newestFirst(matching, query).map((record) => toSource(record, false));
    },

    listForApplication(account: AccountRecord, applicationId: string, query: ListQuery): Source[] {
      findApplication(store, account, applicationId);
      return newestFirst(ofApplication(account, applicationId), query).map((record) =>
        toSource(record, false),
      );
    },

    /** `grant`: what the adding key may fetch (see private-addresses.ts); none unless given. */
    async create(
      account: AccountRecord,
      body: CreateSourceBody,
      grant: PrivateAddressGrant = {},
    ): Promise<Source> {
      const [record] = await addAll(account, [body], () => '', grant);
      return toSource(record!, true);
    },

    /** Adds every source or none; a problem is reported with the position of the source it is in. */
    async createMany(
      account: AccountRecord,
      bodies: CreateSourceBody[],
      grant: PrivateAddressGrant = {},
    ): Promise<Source[]> {
      const records = await addAll(account, bodies, (position) => `sources.${position}.`, grant);
      return records.map((record) => toSource(record, false));
    },

    get(account: AccountRecord, id: string): Source {
      return toSource(find(account, id), true);
    },

    async chunks(account: AccountRecord, id: string): Promise<SourceChunk[]> {
      const source = find(account, id);
      if (source.embed_status !== 'COMPLETED') return [];
      const chunks = await chunkIndex.listBySource(source.id);
      return chunks.map(({ index, page, text, url }) =>
        url ? { index, page, text, url } : { index, page, text },
      );
    },

    async remove(account: AccountRecord, id: string): Promise<{ id: string; deleted: true }> {
      await deletion.deleteSources([find(account, id)]);
      return { id, deleted: true };
    },

    async clear(account: AccountRecord, applicationId: string): Promise<ClearedSources> {
      const application = findApplication(store, account, applicationId);
      const sources = ofApplication(account, application.id);
      await deletion.deleteSources(sources);
      return { application_id: application.id, deleted: sources.length };
    },
  };
}
