import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Connection } from '@lancedb/lancedb';
import type { EmbedStatus, SourceContent } from '../../src/api/sources.ts';
import { newId } from '../ids.ts';
import type { Database } from './database.ts';
import type { Lane } from './schema.ts';
import { encodeContent, laneOf, uploadedFileId } from './source-content.ts';

/**
 * Data directories of ckb before its SQL store kept metadata as JSON rows in LanceDB tables, with a
 * write-ahead journal of JSON lines in front of them (`data/journal/<table>.<n>.log`: `{put}`, `{patch}` and
 * `{delete}` entries, replayed in order over the table). This reads that layout, once, into the database.
 */
const LEGACY_TABLES = [
  'accounts',
  'keys',
  'applications',
  'sources',
  'files',
  'conversations',
  'messages',
] as const;
type LegacyTable = (typeof LEGACY_TABLES)[number];
type LegacyRecord = { id: string };

/** The records as the earlier layout's code wrote them, as JSON. */
interface LegacyTables {
  accounts: Map<string, { id: string; name: string; created_at: string }>;
  keys: Map<
    string,
    {
      id: string;
      account_id: string;
      hash: string;
      prefix: string;
      admin: boolean;
      created_at: string;
      revoked_at: string | null;
    }
  >;
  applications: Map<
    string,
    {
      id: string;
      account_id: string;
      name: string;
      description: string;
      model: string;
      system_message: string;
      created_at: string;
      updated_at: string;
      deleting?: true;
    }
  >;
  sources: Map<
    string,
    {
      id: string;
      account_id: string;
      application_id: string;
      name: string;
      embed_status: EmbedStatus;
      embed_status_message: string;
      chunks: number;
      pages: number;
      characters: number;
      embedder: string | null;
      created_at: string;
      updated_at: string;
      deleting?: true;
    } & SourceContent
  >;
  files: Map<
    string,
    { id: string; account_id: string; name: string; bytes: number; sha256: string; uploaded_at: string }
  >;
  conversations: Map<
    string,
    {
      id: string;
      account_id: string;
      application_id: string;
      title: string;
      created_at: string;
      updated_at: string;
    }
  >;
  messages: Map<
    string,
    {
      id: string;
      account_id: string;
      conversation_id: string;
      role: string;
      content: string;
      sources: unknown[];
      prompt_tokens: number;
      completion_tokens: number;
      created_at: string;
    }
  >;
}

const IMPORTED_SETTING = 'legacy_import';

export interface LegacyImport {
  imported: Record<LegacyTable, number>;
  retiredTo: string;
}

/**
 * Imports a data directory of the earlier layout at the first start of this code: the tables with their
 * journals replayed, in one transaction; then checks that the database holds every record, and only then moves
 * the old tables and journal aside (to `data/legacy-<time>/`, which may be deleted once all is well). A crash
 * before the commit imports again at the next start; after it, only the moving aside is left to do.
 */
export async function importLegacyLayout(input: {
  connection: Connection;
  database: Database;
  dataDir: string;
  now: string;
}): Promise<LegacyImport | undefined> {
  const { connection, database, dataDir, now } = input;
  const present = (await connection.tableNames()).filter((name) =>
    (LEGACY_TABLES as readonly string[]).includes(name),
  );
  const journalDir = join(dataDir, 'journal');
  if (present.length === 0 && !(await exists(journalDir))) return undefined;

  const done = await database.db
    .selectFrom('settings')
    .select('value')
    .where('name', '=', IMPORTED_SETTING)
    .executeTakeFirst();
  let imported: Record<LegacyTable, number> | undefined;
  if (!done) {
    const tables = await readLegacyTables(connection, journalDir, present);
    const rows = toRows(tables, now);
    await writeRows(database, rows, now);
    await verify(database, rows);
    imported = Object.fromEntries(
      Object.entries(rows)
        .filter(([name]) => (LEGACY_TABLES as readonly string[]).includes(name))
        .map(([name, list]) => [name, list.length]),
    ) as Record<LegacyTable, number>;
  }
  const retiredTo = join(dataDir, `legacy-${now.replace(/[:.]/g, '-')}`);
  await retire(dataDir, present, journalDir, retiredTo);
  return {
    imported:
      imported ?? (Object.fromEntries(LEGACY_TABLES.map((name) => [name, 0])) as Record<LegacyTable, number>),
    retiredTo,
  };
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** Every table as its last journaled state: the stored rows, then each journal segment's entries in order. */
async function readLegacyTables(
  connection: Connection,
  journalDir: string,
  present: string[],
): Promise<LegacyTables> {
  const tables: Record<string, Map<string, LegacyRecord>> = {};
  for (const name of LEGACY_TABLES) {
    const records = new Map<string, LegacyRecord>();
    if (present.includes(name)) {
      const table = await connection.openTable(name);
      for (const row of await table.query().select(['body']).toArray()) {
        const record = JSON.parse(String(row.body)) as LegacyRecord;
        records.set(record.id, record);
      }
      table.close();
    }
    for (const entry of await readJournal(journalDir, name)) applyEntry(records, entry);
    tables[name] = records;
  }
  return tables as unknown as LegacyTables;
}

async function readJournal(directory: string, name: string): Promise<unknown[]> {
  if (!(await exists(directory))) return [];
  const pattern = new RegExp(`^${name}\\.(\\d{8,})\\.log$`);
  const segments = (await readdir(directory))
    .map((file) => ({ file, sequence: Number(pattern.exec(file)?.[1] ?? Number.NaN) }))
    .filter((segment) => !Number.isNaN(segment.sequence))
    .sort((left, right) => left.sequence - right.sequence);
  const entries: unknown[] = [];
  for (const { file } of segments) {
    const lines = (await readFile(join(directory, file), 'utf8')).split('\n');
    // The last line is complete only if the file ends with a newline; a torn last line was never acknowledged.
    lines.pop();
    for (const [index, line] of lines.entries()) {
      try {
        entries.push(JSON.parse(line));
      } catch (error) {
        throw new Error(
          `${join(directory, file)} is damaged at line ${index + 1}; restore it from a backup`,
          {
            cause: error,
          },
        );
      }
    }
  }
  return entries;
}

function applyEntry(records: Map<string, LegacyRecord>, entry: unknown): void {
  const journaled = entry as {
    put?: LegacyRecord[];
    patch?: { id: string; changes: object }[];
    delete?: string[];
  };
  for (const record of journaled.put ?? []) records.set(record.id, record);
  for (const { id, changes } of journaled.patch ?? []) {
    const record = records.get(id);
    if (record) records.set(id, { ...record, ...changes });
  }
  for (const id of journaled.delete ?? []) records.delete(id);
}

interface ImportRows {
  accounts: object[];
  keys: object[];
  applications: object[];
  sources: object[];
  jobs: object[];
  files: object[];
  conversations: object[];
  messages: object[];
  chunk_purges: object[];
}

/**
 * The rows to insert. What the earlier code would have finished at its next start is finished here: records
 * marked `deleting` and their children are dropped (their chunks purged), orphans and half-written turns too,
 * and unfinished sources get ingestion jobs.
 */
function toRows(tables: LegacyTables, now: string): ImportRows {
  const rows: ImportRows = {
    accounts: [],
    keys: [],
    applications: [],
    sources: [],
    jobs: [],
    files: [],
    conversations: [],
    messages: [],
    chunk_purges: [],
  };
  const purge = (target: { application_id?: string; source_id?: string }) =>
    rows.chunk_purges.push({
      id: newId('purge'),
      application_id: target.application_id ?? null,
      source_id: target.source_id ?? null,
      passes: 0,
      run_after: 0,
      created_at: now,
    });
  for (const account of tables.accounts.values())
    rows.accounts.push({ id: account.id, name: account.name, created_at: account.created_at });
  const accountIds = new Set(tables.accounts.keys());
  for (const key of tables.keys.values()) {
    if (!accountIds.has(key.account_id)) continue;
    const { id, account_id, hash, prefix, admin, created_at, revoked_at } = key;
    rows.keys.push({
      id,
      account_id,
      hash,
      prefix,
      admin: admin ? 1 : 0,
      created_at,
      revoked_at: revoked_at ?? null,
    });
  }
  const applications = new Set<string>();
  for (const application of tables.applications.values()) {
    if (application.deleting || !accountIds.has(application.account_id)) {
      purge({ application_id: application.id });
      continue;
    }
    applications.add(application.id);
    const { id, account_id, name, description, model, system_message, created_at, updated_at } = application;
    rows.applications.push({
      id,
      account_id,
      name,
      description,
      model,
      system_message,
      created_at,
      updated_at,
    });
  }
  for (const source of tables.sources.values()) {
    if (source.deleting || !applications.has(source.application_id)) {
      purge({ source_id: source.id });
      continue;
    }
    const content = encodeContent(source);
    const fileId = uploadedFileId(source);
    const completed = source.embed_status === 'COMPLETED';
    const unfinished = source.embed_status === 'PENDING' || source.embed_status === 'PROCESSING';
    rows.sources.push({
      id: source.id,
      account_id: source.account_id,
      application_id: source.application_id,
      name: source.name,
      type: source.type,
      content,
      content_bytes: Buffer.byteLength(content),
      embed_status: unfinished ? 'PENDING' : source.embed_status,
      embed_status_message: source.embed_status_message ?? '',
      chunks: source.chunks ?? 0,
      pages: source.pages ?? 0,
      characters: source.characters ?? 0,
      embedder: completed ? (source.embedder ?? null) : null,
      // The earlier layout fetched private addresses for every key on a loopback daemon: its unfinished sources
      // keep doing so when they resume.
      allow_private_addresses: 1,
      // As a source added now would hash it (services/sources.ts), so an unchanged file or text is not
      // ingested again; a web source's pages are hashed when next read.
      content_hash:
        source.type === 'text'
          ? createHash('sha256').update(source.content).digest('hex')
          : fileId === undefined
            ? null
            : (tables.files.get(fileId)?.sha256 ?? null),
      // The old chunks are generation 0 (chunk-index.ts gives it to rows from before generations). The counter
      // starts past it, so the next attempt on any of these sources removes generation 0 when it completes.
      generation: completed ? 0 : null,
      last_generation: 1,
      created_at: source.created_at,
      updated_at: source.updated_at,
    });
    if (unfinished) {
      rows.jobs.push({
        id: newId('job'),
        source_id: source.id,
        lane: laneOf(source) satisfies Lane,
        size: Buffer.byteLength(content),
        attempts: 0,
        lease_owner: null,
        lease_expires_at: null,
        generation: null,
        run_after: 0,
        last_error: '',
        created_at: now,
      });
    }
  }
  for (const file of tables.files.values()) {
    if (!accountIds.has(file.account_id)) continue;
    const { id, account_id, name, bytes, sha256, uploaded_at } = file;
    rows.files.push({ id, account_id, name, bytes, sha256, uploaded_at });
  }
  type LegacyMessage = LegacyTables['messages'] extends Map<string, infer M> ? M : never;
  const messagesByConversation = new Map<string, LegacyMessage[]>();
  for (const message of tables.messages.values()) {
    const list = messagesByConversation.get(message.conversation_id) ?? [];
    list.push(message);
    messagesByConversation.set(message.conversation_id, list);
  }
  for (const conversation of tables.conversations.values()) {
    if (!applications.has(conversation.application_id)) continue;
    const messages = (messagesByConversation.get(conversation.id) ?? []).sort((a, b) =>
      a.id < b.id ? -1 : 1,
    );
    const replies = messages.filter((message) => message.role === 'assistant');
    rows.conversations.push({
      id: conversation.id,
      account_id: conversation.account_id,
      application_id: conversation.application_id,
      title: conversation.title,
      prompt_tokens: replies.reduce((sum, message) => sum + (message.prompt_tokens ?? 0), 0),
      completion_tokens: replies.reduce((sum, message) => sum + (message.completion_tokens ?? 0), 0),
      message_count: messages.length,
      created_at: conversation.created_at,
      updated_at: messages.at(-1)?.created_at ?? conversation.updated_at,
    });
    for (const message of messages) {
      const {
        id,
        account_id,
        conversation_id,
        role,
        content,
        sources,
        prompt_tokens,
        completion_tokens,
        created_at,
      } = message;
      rows.messages.push({
        id,
        account_id,
        conversation_id,
        role,
        content,
        sources: JSON.stringify(sources ?? []),
        prompt_tokens: prompt_tokens ?? 0,
        completion_tokens: completion_tokens ?? 0,
        created_at,
      });
    }
  }
  return rows;
}

const ROWS_PER_INSERT = 500;

async function writeRows(database: Database, rows: ImportRows, now: string): Promise<void> {
  const order: (keyof ImportRows)[] = [
    'accounts',
    'keys',
    'applications',
    'sources',
    'jobs',
    'files',
    'conversations',
    'messages',
    'chunk_purges',
  ];
  await database.transaction(async (trx) => {
    for (const table of order) {
      const list = rows[table];
      for (let start = 0; start < list.length; start += ROWS_PER_INSERT)
        await trx
          .insertInto(table)
          .values(list.slice(start, start + ROWS_PER_INSERT) as never)
          .execute();
    }
    await trx.insertInto('settings').values({ name: IMPORTED_SETTING, value: now }).execute();
  });
}

async function verify(database: Database, rows: ImportRows): Promise<void> {
  for (const table of Object.keys(rows) as (keyof ImportRows)[]) {
    if (table === 'chunk_purges') continue;
    const { count } = await database.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    if (Number(count) < rows[table].length) {
      throw new Error(
        `the import of the earlier data layout is incomplete: ${table} holds ${count} of ${rows[table].length} records`,
      );
    }
  }
}

/** Moves the old metadata tables and journal out of the way; chunk tables stay where they are, in use. */
async function retire(
  dataDir: string,
  present: string[],
  journalDir: string,
  retiredTo: string,
): Promise<void> {
  await mkdir(retiredTo, { recursive: true, mode: 0o700 });
  for (const name of present) {
    await rename(join(dataDir, 'db', `${name}.lance`), join(retiredTo, `${name}.lance`));
  }
  if (await exists(journalDir)) await rename(journalDir, join(retiredTo, 'journal'));
}
