import { type Connection, connect } from '@lancedb/lancedb';
import { RecordTable } from './record-table.ts';
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

/** Opens (creating on first use) every metadata table under `directory`. */
export async function openStore(directory: string): Promise<Store> {
  const connection = await connect(directory);
  const tables = {
    accounts: await RecordTable.open<AccountRecord>(connection, 'accounts', () => ''),
    keys: await RecordTable.open<KeyRecord>(connection, 'keys', () => ''),
    applications: await RecordTable.open<ApplicationRecord>(connection, 'applications', () => ''),
    sources: await RecordTable.open<SourceRecord>(connection, 'sources', (source) => source.application_id),
    files: await RecordTable.open<FileRecord>(connection, 'files', () => ''),
    conversations: await RecordTable.open<ConversationRecord>(
      connection,
      'conversations',
      (c) => c.application_id,
    ),
    messages: await RecordTable.open<MessageRecord>(
      connection,
      'messages',
      (message) => message.conversation_id,
    ),
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
