import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { connect } from '@lancedb/lancedb';
import { type Database, openDatabase } from '../../daemon/store/database.ts';
import { sqlitePath } from '../../daemon/store/index.ts';

/** The metadata database of a stopped daemon's home, as the daemon would open it. */
export async function openHomeDatabase(home: string): Promise<Database> {
  const config = JSON.parse(await readFile(join(home, 'config.json'), 'utf8').catch(() => '{}')) as {
    database_url?: string;
  };
  return openDatabase(
    config.database_url
      ? { kind: 'postgres', url: config.database_url }
      : { kind: 'sqlite', path: sqlitePath(join(home, 'data')) },
  );
}

const TABLES = [
  'accounts',
  'keys',
  'applications',
  'sources',
  'files',
  'conversations',
  'messages',
  'jobs',
  'chunk_purges',
] as const;

export interface StoredChunkRow {
  index: number;
  generation: number;
  text: string;
}

/**
 * Reads a stopped daemon's data directly, below the API: every SQL row, and the chunk rows per source, so
 * orphans, stale generations and duplicates that the API would hide are still seen.
 */
export async function readStorage(
  home: string,
  /** Where the chunks are, when not in the home (CKB_LANCEDB_URI). */
  chunksDir = join(home, 'data', 'db'),
): Promise<{
  chunksBySource: Map<string, StoredChunkRow[]>;
  records: Map<(typeof TABLES)[number], any[]>;
}> {
  const database = await openHomeDatabase(home);
  const records = new Map<(typeof TABLES)[number], any[]>();
  try {
    for (const table of TABLES) records.set(table, await database.db.selectFrom(table).selectAll().execute());
  } finally {
    await database.close();
  }
  const connection = await connect(chunksDir);
  const chunksBySource = new Map<string, StoredChunkRow[]>();
  try {
    for (const name of await connection.tableNames()) {
      if (!name.startsWith('chunks_')) continue;
      const table = await connection.openTable(name);
      for (const row of await table
        .query()
        .select(['sourceId', 'chunkIndex', 'generation', 'text'])
        .toArray()) {
        const list = chunksBySource.get(String(row.sourceId)) ?? [];
        list.push({
          index: Number(row.chunkIndex),
          generation: Number(row.generation),
          text: String(row.text),
        });
        chunksBySource.set(String(row.sourceId), list);
      }
      table.close();
    }
  } finally {
    connection.close();
  }
  return { chunksBySource, records };
}

/**
 * Problems a crash may leave: orphans of deleted parents, half-written turns, chunks of deleted sources or of a
 * generation that is not live, duplicate or missing chunks, and counts that disagree with the chunks.
 */
export function storageProblems(storage: Awaited<ReturnType<typeof readStorage>>): string[] {
  const problems: string[] = [];
  const rows = (table: (typeof TABLES)[number]) => storage.records.get(table) ?? [];
  const ids = (table: (typeof TABLES)[number]) => new Set(rows(table).map((record) => record.id));
  const applications = ids('applications');
  const conversations = ids('conversations');
  const sources = new Map(rows('sources').map((source) => [source.id, source]));
  for (const source of sources.values())
    if (!applications.has(source.application_id)) problems.push(`orphan source ${source.id}`);
  for (const conversation of rows('conversations'))
    if (!applications.has(conversation.application_id))
      problems.push(`orphan conversation ${conversation.id}`);
  const turns = new Map<string, string[]>();
  for (const message of rows('messages')) {
    if (!conversations.has(message.conversation_id)) problems.push(`orphan message ${message.id}`);
    const roles = turns.get(message.conversation_id) ?? [];
    roles.push(message.role);
    turns.set(message.conversation_id, roles);
  }
  for (const [conversation, roles] of turns) {
    const users = roles.filter((role) => role === 'user').length;
    if (users * 2 !== roles.length) problems.push(`half turn in ${conversation}`);
  }
  for (const conversation of rows('conversations')) {
    const count = turns.get(conversation.id)?.length ?? 0;
    if (Number(conversation.message_count) !== count)
      problems.push(
        `conversation ${conversation.id} counts ${conversation.message_count} messages of ${count}`,
      );
  }
  for (const [sourceId, chunks] of storage.chunksBySource) {
    const source = sources.get(sourceId);
    if (!source) {
      problems.push(`orphan chunks of ${sourceId}`);
      continue;
    }
    const live = chunks.filter((chunk) => chunk.generation === source.generation);
    if (live.length !== chunks.length) problems.push(`chunks of a generation not live in ${sourceId}`);
    const indexes = live.map((chunk) => chunk.index).sort((a, b) => a - b);
    if (indexes.some((index, position) => index !== position))
      problems.push(`duplicate or missing chunks in ${sourceId}`);
    if (source.embed_status === 'COMPLETED' && Number(source.chunks) !== live.length)
      problems.push(`source ${sourceId} counts ${source.chunks} chunks of ${live.length}`);
  }
  return problems;
}
