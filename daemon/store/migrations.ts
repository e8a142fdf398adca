import { createHash } from 'node:crypto';
import {
  type ColumnDataType,
  type Expression,
  type Kysely,
  type Migration,
  type MigrationProvider,
  Migrator,
  sql,
} from 'kysely';
import type { DatabaseKind } from './database.ts';

/**
 * The schema's versions, oldest first. A migration is never edited once released: a change is a new one.
 * Names sort in the order they run.
 */
export function migrations(kind: DatabaseKind): Record<string, Migration> {
  // Ids are compared byte by byte (keyset paging, newest first); a PostgreSQL database created with a
  // language's collation would order them otherwise.
  const id: ColumnDataType | Expression<unknown> = kind === 'postgres' ? sql`text collate "C"` : 'text';
  return {
    '0001_initial': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('accounts')
          .addColumn('id', id, (column) => column.primaryKey())
          .addColumn('name', 'text', (column) => column.notNull().unique())
          .addColumn('created_at', 'text', (column) => column.notNull())
          .execute();
        await db.schema
          .createTable('keys')
          .addColumn('id', id, (column) => column.primaryKey())
          .addColumn('account_id', id, (column) => column.notNull().references('accounts.id'))
          .addColumn('hash', 'text', (column) => column.notNull().unique())
          .addColumn('prefix', 'text', (column) => column.notNull())
          .addColumn('admin', 'integer', (column) => column.notNull())
          .addColumn('created_at', 'text', (column) => column.notNull())
          .addColumn('revoked_at', 'text')
          .execute();
        await db.schema
          .createTable('applications')
          .addColumn('id', id, (column) => column.primaryKey())
          .addColumn('account_id', id, (column) => column.notNull().references('accounts.id'))
          .addColumn('name', 'text', (column) => column.notNull())
          .addColumn('description', 'text', (column) => column.notNull())
          .addColumn('model', 'text', (column) => column.notNull())
          .addColumn('system_message', 'text', (column) => column.notNull())
          .addColumn('created_at', 'text', (column) => column.notNull())
          .addColumn('updated_at', 'text', (column) => column.notNull())
          .execute();
        await db.schema
          .createIndex('applications_by_account')
          .on('applications')
          .columns(['account_id', 'id'])
          .execute();
        await db.schema
          .createTable('sources')
          .addColumn('id', id, (column) => column.primaryKey())
          .addColumn('account_id', id, (column) => column.notNull())
          .addColumn('application_id', id, (column) =>
            column.notNull().references('applications.id').onDelete('cascade'),
          )
          .addColumn('name', 'text', (column) => column.notNull())
          .addColumn('type', 'text', (column) => column.notNull())
          .addColumn('content', 'text', (column) => column.notNull())
          .addColumn('content_bytes', 'bigint', (column) => column.notNull())
          .addColumn('embed_status', 'text', (column) => column.notNull())
          .addColumn('embed_status_message', 'text', (column) => column.notNull())
          .addColumn('chunks', 'integer', (column) => column.notNull())
          .addColumn('pages', 'integer', (column) => column.notNull())
          .addColumn('characters', 'bigint', (column) => column.notNull())
          .addColumn('embedder', 'text')
          .addColumn('allow_private_addresses', 'integer', (column) => column.notNull())
          .addColumn('generation', 'integer')
          .addColumn('last_generation', 'integer', (column) => column.notNull())
          .addColumn('created_at', 'text', (column) => column.notNull())
          .addColumn('updated_at', 'text', (column) => column.notNull())
          .execute();
        await db.schema
          .createIndex('sources_by_application')
          .on('sources')
          .columns(['application_id', 'id'])
          .execute();
        await db.schema
          .createIndex('sources_by_account')
          .on('sources')
          .columns(['account_id', 'id'])
          .execute();
        await db.schema
          .createTable('files')
          .addColumn('id', id, (column) => column.primaryKey())
          .addColumn('account_id', id, (column) => column.notNull())
          .addColumn('name', 'text', (column) => column.notNull())
          .addColumn('bytes', 'bigint', (column) => column.notNull())
          .addColumn('sha256', 'text', (column) => column.notNull())
          .addColumn('uploaded_at', 'text', (column) => column.notNull())
          .execute();
        await db.schema.createIndex('files_by_account').on('files').columns(['account_id', 'id']).execute();
        await db.schema
          .createTable('conversations')
          .addColumn('id', id, (column) => column.primaryKey())
          .addColumn('account_id', id, (column) => column.notNull())
          .addColumn('application_id', id, (column) =>
            column.notNull().references('applications.id').onDelete('cascade'),
          )
          .addColumn('title', 'text', (column) => column.notNull())
          .addColumn('prompt_tokens', 'bigint', (column) => column.notNull())
          .addColumn('completion_tokens', 'bigint', (column) => column.notNull())
          .addColumn('message_count', 'integer', (column) => column.notNull())
          .addColumn('created_at', 'text', (column) => column.notNull())
          .addColumn('updated_at', 'text', (column) => column.notNull())
          .execute();
        await db.schema
          .createIndex('conversations_by_application')
          .on('conversations')
          .columns(['application_id', 'id'])
          .execute();
        await db.schema
          .createIndex('conversations_by_account')
          .on('conversations')
          .columns(['account_id', 'id'])
          .execute();
        await db.schema
          .createTable('messages')
          .addColumn('id', id, (column) => column.primaryKey())
          .addColumn('account_id', id, (column) => column.notNull())
          .addColumn('conversation_id', id, (column) =>
            column.notNull().references('conversations.id').onDelete('cascade'),
          )
          .addColumn('role', 'text', (column) => column.notNull())
          .addColumn('content', 'text', (column) => column.notNull())
          .addColumn('sources', 'text', (column) => column.notNull())
          .addColumn('prompt_tokens', 'integer', (column) => column.notNull())
          .addColumn('completion_tokens', 'integer', (column) => column.notNull())
          .addColumn('created_at', 'text', (column) => column.notNull())
          .execute();
        await db.schema
          .createIndex('messages_by_conversation')
          .on('messages')
          .columns(['conversation_id', 'id'])
          .execute();
        await db.schema
          .createTable('jobs')
          .addColumn('id', id, (column) => column.primaryKey())
          .addColumn('source_id', id, (column) =>
            column.notNull().unique().references('sources.id').onDelete('cascade'),
          )
          .addColumn('lane', 'text', (column) => column.notNull())
          .addColumn('size', 'bigint', (column) => column.notNull())
          .addColumn('attempts', 'integer', (column) => column.notNull())
          .addColumn('lease_owner', 'text')
          .addColumn('lease_expires_at', 'bigint')
          .addColumn('generation', 'integer')
          .addColumn('run_after', 'bigint', (column) => column.notNull())
          .addColumn('last_error', 'text', (column) => column.notNull())
          .addColumn('created_at', 'text', (column) => column.notNull())
          .execute();
        // The order jobs are claimed in (store/jobs.ts), so a claim reads a few rows rather than sorting them all.
        await sql`create index jobs_queue on jobs (lane, created_at, size desc, id)`.execute(db);
        await db.schema.createIndex('jobs_by_owner').on('jobs').columns(['lease_owner']).execute();
        await db.schema
          .createTable('chunk_purges')
          .addColumn('id', id, (column) => column.primaryKey())
          .addColumn('application_id', 'text')
          .addColumn('source_id', 'text')
          .addColumn('passes', 'integer', (column) => column.notNull())
          .addColumn('run_after', 'bigint', (column) => column.notNull())
          .addColumn('created_at', 'text', (column) => column.notNull())
          .execute();
        await db.schema
          .createTable('settings')
          .addColumn('name', 'text', (column) => column.primaryKey())
          .addColumn('value', 'text', (column) => column.notNull())
          .execute();
      },
    },
    '0002_source_versions': {
      async up(db: Kysely<unknown>) {
        // What a source's content hashes to, so unchanged content is never ingested again, and how often a web
        // source is fetched again (seconds; null: only when asked).
        await db.schema.alterTable('sources').addColumn('content_hash', 'text').execute();
        await db.schema.alterTable('sources').addColumn('sync_interval', 'integer').execute();
        // The web pages the live chunks were made from: their text, for pages a server says are unchanged (304),
        // the validators that let it say so, and a crawled page's links, to crawl on from it without reading it.
        await db.schema
          .createTable('source_pages')
          .addColumn('source_id', id, (column) =>
            column.notNull().references('sources.id').onDelete('cascade'),
          )
          .addColumn('position', 'integer', (column) => column.notNull())
          .addColumn('address', 'text', (column) => column.notNull())
          .addColumn('url', 'text', (column) => column.notNull())
          .addColumn('canonical_url', 'text')
          .addColumn('title', 'text')
          .addColumn('text', 'text', (column) => column.notNull())
          .addColumn('links', 'text', (column) => column.notNull())
          .addColumn('etag', 'text')
          .addColumn('last_modified', 'text')
          .addPrimaryKeyConstraint('source_pages_key', ['source_id', 'position'])
          .execute();
        await backfillContentHashes(db as Kysely<BackfillSchema>);
      },
    },
    '0003_chunk_writes': {
      async up(db: Kysely<unknown>) {
        // One row per ingestion attempt that may write chunks, from its claim until what it wrote is either live
        // or deleted: the record that lets any process remove the chunks of an attempt whose process died.
        await db.schema
          .createTable('chunk_writes')
          .addColumn('source_id', id, (column) => column.notNull())
          .addColumn('generation', 'integer', (column) => column.notNull())
          .addColumn('replaces', 'integer', (column) => column.notNull())
          .addColumn('created_at', 'text', (column) => column.notNull())
          .addPrimaryKeyConstraint('chunk_writes_key', ['source_id', 'generation'])
          .execute();
      },
    },
    '0004_source_attempts': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .alterTable('sources')
          .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
          .execute();
        await db.schema
          .alterTable('sources')
          .addColumn('last_error', 'text', (column) => column.notNull().defaultTo(''))
          .execute();
        // GET /health counts the failed sources of every account; this keeps that a count of the failed ones.
        await sql`create index sources_failed on sources (id) where embed_status = 'FAILED'`.execute(db);
      },
    },
    '0005_job_queue_order': {
      async up(db: Kysely<unknown>) {
        // A claim reads the queue in its order and stops at the first free jobs; without this index it read and
        // sorted every queued job, so 20,000 queued sources cost 20,000 sorts of up to 20,000 rows.
        await sql`create index jobs_in_claim_order on jobs (lane, created_at, size desc, id)`.execute(db);
        // When a lane's next job is due: the earliest run_after among the jobs no process holds.
        await sql`create index jobs_due on jobs (lane, run_after) where lease_owner is null`.execute(db);
      },
    },
  };
}

interface BackfillSchema {
  sources: { id: string; type: string; content: string; content_hash: string | null };
  files: { id: string; sha256: string };
}

/** Sources from before content hashes: an uploaded file's is the file's, a text's is its own. */
async function backfillContentHashes(db: Kysely<BackfillSchema>): Promise<void> {
  await db
    .updateTable('sources')
    .set((eb) => ({
      content_hash: eb
        .selectFrom('files')
        .select('files.sha256')
        .whereRef('files.id', '=', 'sources.content'),
    }))
    .where('type', '=', 'file')
    .execute();
  let after = '';
  for (;;) {
    const texts = await db
      .selectFrom('sources')
      .select(['id', 'content'])
      .where('type', '=', 'text')
      .where('id', '>', after)
      .orderBy('id')
      .limit(500)
      .execute();
    if (texts.length === 0) return;
    for (const text of texts)
      await db
        .updateTable('sources')
        .set({ content_hash: createHash('sha256').update(text.content).digest('hex') })
        .where('id', '=', text.id)
        .execute();
    after = texts.at(-1)!.id;
  }
}

/** Thrown when the database holds migrations this code does not know: it was upgraded by a newer ckb. */
export class SchemaTooNewError extends Error {
  override name = 'SchemaTooNewError';
}

/**
 * Brings the schema up to date. Migrations see the database untyped: they must keep working as the code's own
 * types move on. A database that a newer version of ckb has migrated is left untouched:
 * running older code on it could lose what the newer schema holds.
 */
// biome-ignore lint/suspicious/noExplicitAny: Kysely types a database of unknown tables as Kysely<any>
export async function migrate(db: Kysely<any>, kind: DatabaseKind, where: string): Promise<string[]> {
  const known = migrations(kind);
  const provider: MigrationProvider = { getMigrations: async () => known };
  const migrator = new Migrator({ db, provider });
  const unknown = await appliedButUnknown(db, Object.keys(known));
  if (unknown.length > 0) {
    throw new SchemaTooNewError(
      `the ${where} was upgraded by a newer version of ckb (schema ${unknown.at(-1)}); upgrade ckb to use it`,
    );
  }
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? [])
    .filter((result) => result.status === 'Success')
    .map((result) => result.migrationName);
}

async function appliedButUnknown(db: Kysely<unknown>, known: string[]): Promise<string[]> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  if (!tables.some((table) => table.name === 'kysely_migration')) return [];
  const migrationTable = db as unknown as Kysely<{ kysely_migration: { name: string } }>;
  const rows = await migrationTable.selectFrom('kysely_migration').select('name').orderBy('name').execute();
  return rows.map((row) => String(row.name)).filter((name) => !known.includes(name));
}
