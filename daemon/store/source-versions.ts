import type { Transaction } from 'kysely';
import { newId } from '../ids.ts';
import type { WebPage } from '../web-page.ts';
import type { Database } from './database.ts';
import type { Lane, Schema } from './schema.ts';

/** What a completed attempt read: the hash of its content and, for web sources, the pages it came from. */
export interface SourceVersion {
  contentHash: string;
  pages: WebPage[];
}

/** The version whose chunks are live, as an attempt finds it before it starts: what it may reuse. */
export interface LiveVersion {
  /** The live chunks' generation, and the embedder that made them; null when no chunks are live. */
  generation: number | null;
  embedder: string | null;
  contentHash: string | null;
  pages: WebPage[];
}

/** Rows per INSERT: SQLite binds at most 32,766 values in one statement. */
const ROWS_PER_INSERT = 500;

/**
 * A job row: to ingest a source now (`runAfter` 0), or its next periodic re-sync, which waits with no attempts
 * yet until `runAfter` (milliseconds since the epoch).
 */
export function jobRow(sourceId: string, lane: Lane, size: number, runAfter: number, at: string) {
  return {
    id: newId('job'),
    source_id: sourceId,
    lane,
    size,
    attempts: 0,
    lease_owner: null,
    lease_expires_at: null,
    generation: null,
    run_after: runAfter,
    last_error: '',
    created_at: at,
  };
}

/** The live version of a source: its generation, content hash and web pages. */
export async function liveVersion(database: Database, sourceId: string): Promise<LiveVersion | undefined> {
  const { db } = database;
  const source = await db
    .selectFrom('sources')
    .select(['generation', 'embedder', 'content_hash'])
    .where('id', '=', sourceId)
    .executeTakeFirst();
  if (!source) return undefined;
  const rows = await db
    .selectFrom('source_pages')
    .selectAll()
    .where('source_id', '=', sourceId)
    .orderBy('position')
    .execute();
  return {
    generation: source.generation,
    embedder: source.embedder,
    contentHash: source.content_hash,
    pages: rows.map((row) => ({
      position: row.position,
      address: row.address,
      url: row.url,
      ...(row.canonical_url === null ? {} : { canonicalUrl: row.canonical_url }),
      ...(row.title === null ? {} : { title: row.title }),
      text: row.text,
      links: JSON.parse(row.links) as string[],
      ...(row.etag === null ? {} : { etag: row.etag }),
      ...(row.last_modified === null ? {} : { lastModified: row.last_modified }),
    })),
  };
}

/**
 * In the transaction that completes an attempt of a web source: the pages and content hash of the version it
 * made live, and, for a source synced periodically, its next sync. Text and file sources have neither.
 */
export async function recordVersion(
  trx: Transaction<Schema>,
  sourceId: string,
  version: SourceVersion | undefined,
  at: string,
): Promise<void> {
  if (!version) return;
  await trx.deleteFrom('source_pages').where('source_id', '=', sourceId).execute();
  for (let start = 0; start < version.pages.length; start += ROWS_PER_INSERT) {
    await trx
      .insertInto('source_pages')
      .values(
        version.pages.slice(start, start + ROWS_PER_INSERT).map((page) => ({
          source_id: sourceId,
          position: page.position,
          address: page.address,
          url: page.url,
          canonical_url: page.canonicalUrl ?? null,
          title: page.title ?? null,
          text: page.text,
          links: JSON.stringify(page.links),
          etag: page.etag ?? null,
          last_modified: page.lastModified ?? null,
        })),
      )
      .execute();
  }
  await trx
    .updateTable('sources')
    .set({ content_hash: version.contentHash })
    .where('id', '=', sourceId)
    .execute();
  await scheduleNextSync(trx, sourceId, at);
}

/**
 * Once an attempt of a source synced periodically has ended (its job deleted in this transaction), its next sync
 * waits in the queue as a job due `sync_interval` seconds from now. Any process may claim it when it is due, and
 * only one does: the schedule lives in the database, not in a timer of one process.
 */
export async function scheduleNextSync(
  trx: Transaction<Schema>,
  sourceId: string,
  at: string,
): Promise<void> {
  const source = await trx
    .selectFrom('sources')
    .select('sync_interval')
    .where('id', '=', sourceId)
    .executeTakeFirst();
  if (!source?.sync_interval) return;
  await trx
    .insertInto('jobs')
    .values(jobRow(sourceId, 'web', 0, Date.parse(at) + source.sync_interval * 1000, at))
    .onConflict((conflict) => conflict.column('source_id').doNothing())
    .execute();
}
