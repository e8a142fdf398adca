import type { Connection, Table } from '@lancedb/lancedb';
import { Field, Schema, Utf8 } from 'apache-arrow';
import { SerialQueue } from './serial-queue.ts';

/** Every metadata record carries these; the rest of it is stored as JSON in `body`. */
export interface StoredRecord {
  id: string;
  account_id: string;
}

const RECORD_SCHEMA = new Schema([
  new Field('id', new Utf8(), false),
  new Field('account_id', new Utf8(), false),
  new Field('parent_id', new Utf8(), false),
  new Field('body', new Utf8(), false),
]);

function quote(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

export function idList(ids: readonly string[]): string {
  return ids.map(quote).join(', ');
}

/**
 * A LanceDB table of small records (applications, sources, …) with a write-through cache in memory.
 * LanceDB holds the truth: a write resolves only after it is committed, and the cache changes only then,
 * so a failed write changes nothing. Reads come from memory, which keeps lookups per request in microseconds.
 */
export class RecordTable<T extends StoredRecord> {
  readonly name: string;
  private readonly table: Table;
  private readonly parentOf: (record: T) => string;
  private readonly records = new Map<string, T>();
  private readonly writes = new SerialQueue();
  private writesSinceMaintenance = 0;

  private constructor(name: string, table: Table, parentOf: (record: T) => string) {
    this.name = name;
    this.table = table;
    this.parentOf = parentOf;
  }

  static async open<T extends StoredRecord>(
    connection: Connection,
    name: string,
    parentOf: (record: T) => string,
  ): Promise<RecordTable<T>> {
    const table = await connection.createEmptyTable(name, RECORD_SCHEMA, { existOk: true });
    const recordTable = new RecordTable<T>(name, table, parentOf);
    for (const row of await table.query().select(['body']).toArray()) {
      const record = JSON.parse(String(row.body)) as T;
      recordTable.records.set(record.id, record);
    }
    return recordTable;
  }

  get(id: string): T | undefined {
    return this.records.get(id);
  }

  values(): T[] {
    return [...this.records.values()];
  }

  filter(predicate: (record: T) => boolean): T[] {
    return this.values().filter(predicate);
  }

  get size(): number {
    return this.records.size;
  }

  /** Inserts or replaces records in one atomic commit. */
  put(...records: T[]): Promise<void> {
    if (records.length === 0) return Promise.resolve();
    return this.writes.run(async () => {
      const rows = records.map((record) => ({
        id: record.id,
        account_id: record.account_id,
        parent_id: this.parentOf(record),
        body: JSON.stringify(record),
      }));
      await this.table.mergeInsert('id').whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(rows);
      for (const record of records) this.records.set(record.id, record);
      this.writesSinceMaintenance += 1;
    });
  }

  /** Deletes records in one atomic commit. */
  delete(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return Promise.resolve();
    return this.writes.run(async () => {
      for (let start = 0; start < ids.length; start += 500) {
        await this.table.delete(`id IN (${idList(ids.slice(start, start + 500))})`);
      }
      for (const id of ids) this.records.delete(id);
      this.writesSinceMaintenance += 1;
    });
  }

  /** Compacts files and drops old versions so many small writes do not grow the directory without bound. */
  maintain(olderThan: Date): Promise<void> {
    if (this.writesSinceMaintenance === 0) return Promise.resolve();
    return this.writes.run(async () => {
      this.writesSinceMaintenance = 0;
      await this.table.optimize({ cleanupOlderThan: olderThan });
    });
  }

  close(): void {
    this.table.close();
  }
}
