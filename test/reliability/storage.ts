import { join } from 'node:path';
import { connect } from '@lancedb/lancedb';

/**
 * Reads a stopped daemon's tables directly, below the API: chunk rows per source and record ids per table,
 * so orphans and duplicates that the API would hide are still seen.
 */
export async function readStorage(home: string): Promise<{
  chunksBySource: Map<string, { index: number; text: string }[]>;
  records: Map<string, { id: string; body: any }[]>;
}> {
  const connection = await connect(join(home, 'data', 'db'));
  try {
    const chunksBySource = new Map<string, { index: number; text: string }[]>();
    const records = new Map<string, { id: string; body: any }[]>();
    for (const name of await connection.tableNames()) {
      const table = await connection.openTable(name);
      if (name.startsWith('chunks_')) {
        for (const row of await table.query().select(['sourceId', 'chunkIndex', 'text']).toArray()) {
          const list = chunksBySource.get(String(row.sourceId)) ?? [];
          list.push({ index: Number(row.chunkIndex), text: String(row.text) });
          chunksBySource.set(String(row.sourceId), list);
        }
      } else {
        const rows = await table.query().select(['id', 'body']).toArray();
        records.set(
          name,
          rows.map((row) => ({ id: String(row.id), body: JSON.parse(String(row.body)) })),
        );
      }
      table.close();
    }
    return { chunksBySource, records };
  } finally {
    connection.close();
  }
}

/** Problems a crash may leave: duplicate rows, orphans of deleted parents, half-written turns. */
export function storageProblems(storage: Awaited<ReturnType<typeof readStorage>>): string[] {
  const problems: string[] = [];
  const ids = (table: string) => new Set((storage.records.get(table) ?? []).map((record) => record.id));
  for (const [table, rows] of storage.records) {
    if (new Set(rows.map((row) => row.id)).size !== rows.length) problems.push(`duplicate ids in ${table}`);
  }
  const applications = ids('applications');
  const sources = ids('sources');
  const conversations = ids('conversations');
  for (const source of storage.records.get('sources') ?? []) {
    if (!applications.has(source.body.application_id)) problems.push(`orphan source ${source.id}`);
  }
  for (const conversation of storage.records.get('conversations') ?? []) {
    if (!applications.has(conversation.body.application_id))
      problems.push(`orphan conversation ${conversation.id}`);
  }
  const turns = new Map<string, string[]>();
  for (const message of storage.records.get('messages') ?? []) {
    if (!conversations.has(message.body.conversation_id)) problems.push(`orphan message ${message.id}`);
    const roles = turns.get(message.body.conversation_id) ?? [];
    roles.push(message.body.role);
    turns.set(message.body.conversation_id, roles);
  }
  for (const [conversation, roles] of turns) {
    const users = roles.filter((role) => role === 'user').length;
    if (users * 2 !== roles.length) problems.push(`half turn in ${conversation}`);
  }
  for (const [sourceId, chunks] of storage.chunksBySource) {
    if (!sources.has(sourceId)) problems.push(`orphan chunks of ${sourceId}`);
    const indexes = chunks.map((chunk) => chunk.index).sort((a, b) => a - b);
    if (indexes.some((index, position) => index !== position))
      problems.push(`duplicate or missing chunks in ${sourceId}`);
  }
  return problems;
}
