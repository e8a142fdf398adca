import { type Selectable, sql, type Transaction } from 'kysely';
import type { EmbedStatus, SourceContent } from '../../src/api/sources.ts';
import { notFound } from '../errors.ts';
import { newId } from '../ids.ts';
import type { Database } from './database.ts';
import { exclusiveLock, sharedLock } from './locks.ts';
import { newestFirst, type Page } from './paging.ts';
import type { SourceRecord, SourceSummary } from './records.ts';
import type { Lane, Schema, SourceTable } from './schema.ts';
import { decodeContent, encodeContent, laneOf, uploadedFileId } from './source-content.ts';
import { jobRow } from './source-versions.ts';

const SUMMARY_COLUMNS = [
  'id',
  'account_id',
  'application_id',
  'name',
  'type',
  'embed_status',
  'embed_status_message',
  'chunks',
  'pages',
  'characters',
  'embedder',
  'allow_private_addresses',
  'content_hash',
  'sync_interval',
  'attempts',
  'last_error',
  'created_at',
  'updated_at',
] as const;

function toSummary(row: Pick<Selectable<SourceTable>, (typeof SUMMARY_COLUMNS)[number]>): SourceSummary {
  return {
    id: row.id,
    account_id: row.account_id,
    application_id: row.application_id,
    name: row.name,
    type: row.type,
    embed_status: row.embed_status,
    embed_status_message: row.embed_status_message,
    chunks: row.chunks,
    pages: row.pages,
    characters: row.characters,
    embedder: row.embedder,
    allow_private_addresses: Boolean(row.allow_private_addresses),
    content_hash: row.content_hash,
    sync_interval: row.sync_interval,
    attempts: row.attempts,
    last_error: row.last_error,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** A source's row, content included, as the record the services use. */
export function toSourceRecord(
  row: Pick<Selectable<SourceTable>, (typeof SUMMARY_COLUMNS)[number] | 'content'>,
): SourceRecord {
  return { ...toSummary(row), ...decodeContent(row.type, row.content) };
}

/** A source as a transaction that just changed it sees it. */
async function recordIn(trx: Transaction<Schema>, id: string): Promise<SourceRecord> {
  const row = await trx
    .selectFrom('sources')
    .select([...SUMMARY_COLUMNS, 'content'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return toSourceRecord(row);
}

/** A new source and how its ingestion job is queued. */
export interface NewSource {
  record: SourceRecord;
  lane: Lane;
  /** What is known of its size before it is read, so large sources start first. */
  size: number;
}

export interface SourceFilter {
  applicationId?: string | undefined;
  status?: EmbedStatus | undefined;
}

/** New content for a source, with its hash when known before it is read (a text's, an uploaded file's). */
export interface NewContent {
  value: SourceContent;
  hash: string | null;
  lane: Lane;
  size: number;
}

export interface SourceChange {
  name?: string | undefined;
  content?: NewContent | undefined;
  /** Seconds between re-syncs, or null for none. */
  syncInterval?: number | null | undefined;
}

/** What an update did: the source as it now is, and whether a new ingestion of it was queued. */
export interface UpdatedSource {
  record: SourceRecord;
  queued: boolean;
  /** Attempts of the source up to this generation were fenced out: they can no longer complete. */
  supersededUpTo: number;
}

/** Rows per INSERT: SQLite binds at most 32,766 values in one statement. */
const ROWS_PER_INSERT = 500;

export type SourceStore = ReturnType<typeof createSourceStore>;

export function createSourceStore(database: Database) {
  const { db } = database;

  async function purgeAndDelete(
    trx: Parameters<Parameters<Database['transaction']>[0]>[0],
    ids: string[],
    at: string,
  ): Promise<void> {
    for (let start = 0; start < ids.length; start += ROWS_PER_INSERT) {
      const slice = ids.slice(start, start + ROWS_PER_INSERT);
      await trx.deleteFrom('sources').where('id', 'in', slice).execute();
      await trx
        .insertInto('chunk_purges')
        .values(
          slice.map((id) => ({
            id: newId('purge'),
            application_id: null,
            source_id: id,
            passes: 0,
            run_after: 0,
            created_at: at,
          })),
        )
        .execute();
    }
  }

  return {
    /**
     * Adds the sources and their ingestion jobs in one transaction: all of them or, when one names an
     * application that is not the account's (or is deleted meanwhile), none. `paramOf` names the field at fault.
     */
    async insert(
      accountId: string,
      sources: NewSource[],
      paramOf: (position: number) => string,
    ): Promise<void> {
      const applicationIds = [...new Set(sources.map((source) => source.record.application_id))];
      await database.transaction(async (trx) => {
        const found = await sharedLock(
          database,
          trx
            .selectFrom('applications')
            .select('id')
            .where('account_id', '=', accountId)
            .where('id', 'in', applicationIds),
        ).execute();
        const known = new Set(found.map((row) => row.id));
        const missing = sources.findIndex((source) => !known.has(source.record.application_id));
        if (missing !== -1)
          throw notFound('application', sources[missing]!.record.application_id, paramOf(missing));
        for (let start = 0; start < sources.length; start += ROWS_PER_INSERT) {
          const slice = sources.slice(start, start + ROWS_PER_INSERT);
          await trx
            .insertInto('sources')
            .values(
              slice.map(({ record }) => {
                const content = encodeContent(record);
                return {
                  ...record,
                  content,
                  allow_private_addresses: record.allow_private_addresses ? 1 : 0,
                  content_bytes: Buffer.byteLength(content),
                  generation: null,
                  last_generation: 0,
                };
              }),
            )
            .execute();
          await trx
            .insertInto('jobs')
            .values(
              slice.map(({ record, lane, size }) => jobRow(record.id, lane, size, 0, record.created_at)),
            )
            .execute();
        }
      });
    },

    async find(accountId: string, id: string): Promise<SourceRecord | undefined> {
      const row = await db
        .selectFrom('sources')
        .select([...SUMMARY_COLUMNS, 'content'])
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      return row && toSourceRecord(row);
    },

    async list(accountId: string, filter: SourceFilter, page: Page): Promise<SourceSummary[]> {
      let query = db.selectFrom('sources').select(SUMMARY_COLUMNS).where('account_id', '=', accountId);
      if (filter.applicationId !== undefined)
        query = query.where('application_id', '=', filter.applicationId);
      if (filter.status !== undefined) query = query.where('embed_status', '=', filter.status);
      return (await newestFirst(query, 'id', page, 'src').execute()).map(toSummary);
    },

    /**
     * Deletes the account's sources among `ids` with their jobs, and queues their chunks for removal from
     * LanceDB, in one transaction; returns the ids it deleted.
     */
    async delete(accountId: string, ids: string[], at: string): Promise<string[]> {
      return database.transaction(async (trx) => {
        const owned: string[] = [];
        for (let start = 0; start < ids.length; start += ROWS_PER_INSERT) {
          const rows = await trx
            .selectFrom('sources')
            .select('id')
            .where('account_id', '=', accountId)
            .where('id', 'in', ids.slice(start, start + ROWS_PER_INSERT))
            .execute();
          owned.push(...rows.map((row) => row.id));
        }
        await purgeAndDelete(trx, owned, at);
        return owned;
      });
    },

    /** Deletes every source of an application, as `delete` does; returns how many. */
    async deleteAllOf(accountId: string, applicationId: string, at: string): Promise<string[]> {
      return database.transaction(async (trx) => {
        const rows = await trx
          .selectFrom('sources')
          .select('id')
          .where('account_id', '=', accountId)
          .where('application_id', '=', applicationId)
          .execute();
        const ids = rows.map((row) => row.id);
        await purgeAndDelete(trx, ids, at);
        return ids;
      });
    },

    /**
     * The name and live chunk generation of each source among `ids` that still exists: search keeps a chunk
     * only if its source is here and the chunk is of its live generation.
     */
    async live(ids: string[]): Promise<Map<string, { name: string; generation: number }>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom('sources')
        .select(['id', 'name', 'generation'])
        .where('id', 'in', ids)
        .where('generation', 'is not', null)
        .execute();
      return new Map(rows.map((row) => [row.id, { name: row.name, generation: row.generation! }]));
    },

    /** The live chunk generation of one source, if it has one. */
    async liveGeneration(id: string): Promise<number | undefined> {
      const row = await db.selectFrom('sources').select('generation').where('id', '=', id).executeTakeFirst();
      return row?.generation ?? undefined;
    },

    /** Bytes the account stores: its uploaded files and the content of its sources. */
    async storedBytes(accountId: string): Promise<number> {
      const files = await db
        .selectFrom('files')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('bytes'), eb.lit(0)).as('bytes'))
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow();
      const sources = await db
        .selectFrom('sources')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('content_bytes'), eb.lit(0)).as('bytes'))
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow();
      return Number(files.bytes) + Number(sources.bytes);
    },

    /**
     * Sources whose live chunks another embedder made: they are embedded again by the current one. A source
     * whose only job is its next periodic sync, not yet due, is embedded again now.
     */
    async requeueOtherEmbedders(embedderId: string, now: string): Promise<number> {
      return database.transaction(async (trx) => {
        const rows = await trx
          .selectFrom('sources')
          .leftJoin('jobs', 'jobs.source_id', 'sources.id')
          // A file source's content says whether it is an upload or a URL; a text's may be megabytes, and its
          // lane does not depend on it.
          .select(['sources.id', 'sources.type', 'sources.content_bytes'])
          .select(sql<string>`case when sources.type = 'text' then '' else sources.content end`.as('content'))
          .where('sources.embedder', 'is not', null)
          .where('sources.embedder', '!=', embedderId)
          .where((eb) =>
            eb.or([
              eb('jobs.id', 'is', null),
              eb.and([
                eb('jobs.attempts', '=', 0),
                eb('jobs.lease_owner', 'is', null),
                eb('jobs.run_after', '>', 0),
              ]),
            ]),
          )
          .execute();
        for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
          const slice = rows.slice(start, start + ROWS_PER_INSERT);
          const ids = slice.map((row) => row.id);
          // Their chunks are in another embedder's table, which is dropped: none are live any more.
          await trx
            .updateTable('sources')
            .set({ embed_status: 'PENDING', embed_status_message: '', generation: null, updated_at: now })
            .where('id', 'in', ids)
            .execute();
          await trx.deleteFrom('jobs').where('source_id', 'in', ids).execute();
          await trx
            .insertInto('jobs')
            .values(
              slice.map((row) =>
                jobRow(row.id, laneOf(decodeContent(row.type, row.content)), row.content_bytes, 0, now),
              ),
            )
            .execute();
        }
        return rows.length;
      });
    },

    /**
     * Changes a source in one transaction: its name, its sync interval, and its content, which queues a new
     * ingestion in place of any job it had (an attempt still running can no longer complete). The source keeps
     * its id and its live chunks until the new ones are committed. Content equal to the current one queues
     * nothing, except to try a FAILED source again. Undefined when the account has no such source.
     */
    async update(
      accountId: string,
      id: string,
      change: SourceChange,
      now: number,
      at: string,
    ): Promise<UpdatedSource | undefined> {
      return database.transaction(async (trx) => {
        // The job first, then the source: the order completing an attempt takes them in.
        const job = await exclusiveLock(
          database,
          trx.selectFrom('jobs').select(['attempts', 'lease_owner', 'run_after']).where('source_id', '=', id),
        ).executeTakeFirst();
        const row = await exclusiveLock(
          database,
          trx.selectFrom('sources').selectAll().where('id', '=', id).where('account_id', '=', accountId),
        ).executeTakeFirst();
        if (!row) return undefined;
        const { content } = change;
        // The uploaded file new content names must still exist when the change commits.
        const fileId = content && uploadedFileId(content.value);
        if (fileId !== undefined) {
          const file = await sharedLock(
            database,
            trx.selectFrom('files').select('id').where('id', '=', fileId).where('account_id', '=', accountId),
          ).executeTakeFirst();
          if (!file) throw notFound('file', fileId, 'content');
        }
        const encoded = content && encodeContent(content.value);
        const changed =
          content !== undefined &&
          (content.hash === null ? encoded !== row.content : content.hash !== row.content_hash);
        const queued = changed || (content !== undefined && row.embed_status === 'FAILED');
        // Web content is hashed once it is read: new addresses have no hash until then.
        const hash =
          content === undefined ? row.content_hash : (content.hash ?? (changed ? null : row.content_hash));
        await trx
          .updateTable('sources')
          .set({
            ...(change.name === undefined ? {} : { name: change.name }),
            ...(encoded === undefined
              ? {}
              : { content: encoded, content_bytes: Buffer.byteLength(encoded), content_hash: hash }),
            ...(change.syncInterval === undefined ? {} : { sync_interval: change.syncInterval }),
            ...(queued ? { embed_status: 'PENDING' as const, embed_status_message: '' } : {}),
            updated_at: at,
          })
          .where('id', '=', id)
          .execute();
        // Content read locally (a text, an uploaded file) has no web pages to ask about again.
        if (content !== undefined && content.hash !== null)
          await trx.deleteFrom('source_pages').where('source_id', '=', id).execute();
        if (queued) {
          const fresh = jobRow(id, content!.lane, content!.size, 0, at);
          await trx
            .insertInto('jobs')
            .values(fresh)
            .onConflict((conflict) => conflict.column('source_id').doUpdateSet(fresh))
            .execute();
        } else if (change.syncInterval !== undefined) {
          await reschedule(trx, id, job, change.syncInterval, now, at);
        }
        return { record: await recordIn(trx, id), queued, supersededUpTo: row.last_generation };
      });
    },

    /**
     * Queues a web source to be read again now, unless an attempt is under way or queued already (a periodic
     * sync not yet due is brought forward). Undefined when the account has no such source.
     */
    async requestSync(
      accountId: string,
      id: string,
      now: number,
      at: string,
    ): Promise<{ record: SourceRecord; queued: boolean } | undefined> {
      return database.transaction(async (trx) => {
        const job = await exclusiveLock(
          database,
          trx.selectFrom('jobs').select(['lease_owner', 'run_after']).where('source_id', '=', id),
        ).executeTakeFirst();
        const row = await exclusiveLock(
          database,
          trx.selectFrom('sources').select('id').where('id', '=', id).where('account_id', '=', accountId),
        ).executeTakeFirst();
        if (!row) return undefined;
        const queued = job === undefined || (job.lease_owner === null && job.run_after > now);
        if (job === undefined) {
          // Another request may queue it at the same time (PostgreSQL): one job is enough.
          await trx
            .insertInto('jobs')
            .values(jobRow(id, 'web', 0, 0, at))
            .onConflict((conflict) => conflict.column('source_id').doNothing())
            .execute();
        } else if (queued) {
          await trx.updateTable('jobs').set({ run_after: 0 }).where('source_id', '=', id).execute();
        }
        if (queued)
          await trx
            .updateTable('sources')
            .set({ embed_status: 'PENDING', embed_status_message: '', updated_at: at })
            .where('id', '=', id)
            .execute();
        return { record: await recordIn(trx, id), queued };
      });
    },
  };
}

/**
 * A new sync interval without new content: the next periodic sync is due one interval from now, or, with no
 * interval, is dropped. A job that is more than that (an ingestion queued or under way, a retry) is left alone.
 */
async function reschedule(
  trx: Transaction<Schema>,
  id: string,
  job: { attempts: number; lease_owner: string | null; run_after: number } | undefined,
  interval: number | null,
  now: number,
  at: string,
): Promise<void> {
  const scheduled = job !== undefined && job.attempts === 0 && job.lease_owner === null && job.run_after > 0;
  if (job !== undefined && !scheduled) return;
  if (interval === null) {
    if (scheduled) await trx.deleteFrom('jobs').where('source_id', '=', id).execute();
    return;
  }
  const runAfter = now + interval * 1000;
  if (scheduled)
    await trx.updateTable('jobs').set({ run_after: runAfter }).where('source_id', '=', id).execute();
  else
    await trx
      .insertInto('jobs')
      .values(jobRow(id, 'web', 0, runAfter, at))
      .onConflict((conflict) => conflict.column('source_id').doNothing())
      .execute();
}
