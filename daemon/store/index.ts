import { dirname, join } from 'node:path';
import { type Connection, connect } from '@lancedb/lancedb';
import { RecordTable, type StoredRecord } from './record-table.ts';
import type {
  AccountRecord,
  ApplicationRecord,
  ConversationRecord,
  FileRecord,
  KeyRecord,
  MessageRecord,
  SourceRecord,
} from './records.ts';

export interface Store {
  readonly connection: Connection;
  readonly accounts: RecordTable<AccountRecord>;
  readonly keys: RecordTable<KeyRecord>;
  readonly applications: RecordTable<ApplicationRecord>;
  readonly sources: RecordTable<SourceRecord>;
  readonly files: RecordTable<FileRecord>;
  readonly conversations: RecordTable<ConversationRecord>;
  readonly messages: RecordTable<MessageRecord>;
  /** Compacts every table written since the last call and removes versions older than a minute. */
  maintain(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens (creating on first use) every metadata table under `directory`, with their write-ahead journals in
 * `journalDirectory` (by default `journal` beside it).
 */
export async function openStore(
  directory: string,
  journalDirectory = join(dirname(directory), 'journal'),
): Promise<Store> {
  const connection = await connect(directory);
  const open = <T extends StoredRecord>(name: string, parentOf: (record: T) => string) =>
    RecordTable.open<T>(connection, name, parentOf, journalDirectory);
  const tables = {
    accounts: await open<AccountRecord>('accounts', () => ''),
    keys: await open<KeyRecord>('keys', () => ''),
    applications: await open<ApplicationRecord>('applications', () => ''),
    sources: await open<SourceRecord>('sources', (source) => source.application_id),
    files: await open<FileRecord>('files', () => ''),
    conversations: await open<ConversationRecord>('conversations', (c) => c.application_id),
    messages: await open<MessageRecord>('messages', (message) => message.conversation_id),
  };
  const all = Object.values(tables);
  return {
    connection,
    ...tables,
    async maintain() {
      const olderThan = new Date(Date.now() - 60_000);
      for (const table of all) await table.maintain(olderThan);
    },
    async close() {
      for (const table of all) await table.close();
      connection.close();
    },
  };
}
