import type { Connection, Table } from '@lancedb/lancedb';
import { Field, Schema, Utf8 } from 'apache-arrow';

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

const COMMITS_BETWEEN_COMPACTIONS = 50;

type Write<T> =
  | { kind: 'put'; records: T[] }
  | { kind: 'delete'; ids: readonly string[] }
  | { kind: 'maintain'; olderThan: Date };

interface QueuedWrite<T> {
  write: Write<T>;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * A LanceDB table of small records (applications, sources, …) with a write-through cache in memory.
 * LanceDB holds the truth: a write resolves only after it is committed, and the cache changes only then,
 * so a failed write changes nothing. Reads come from memory, which keeps lookups per request in microseconds.
 *
 * Writes that arrive while a commit is running are grouped into the next one (runs of puts become one
 * merge-insert, runs of deletes one delete), in order: each LanceDB commit costs milliseconds whatever its
 * size, so many concurrent small writes (thousands of sources ingesting) would otherwise queue behind each other.
 */
export class RecordTable<T extends StoredRecord> {
  readonly name: string;
  private readonly table: Table;
  private readonly parentOf: (record: T) => string;
  private readonly records = new Map<string, T>();
  /** Ids by parent id (a source's application, a message's conversation), so children are found without a scan. */
  private readonly children = new Map<string, Set<string>>();
  private queue: QueuedWrite<T>[] = [];
  private flushing: Promise<void> | undefined;
  private writesSinceMaintenance = 0;
  private commitsSinceCompaction = 0;
  private cleanupPending = false;

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
      recordTable.remember(JSON.parse(String(row.body)) as T);
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

  /** The records whose parent (as the table defines it) is `parentId`, in id order. */
  childrenOf(parentId: string): T[] {
    const ids = [...(this.children.get(parentId) ?? [])].sort();
    return ids.map((id) => this.records.get(id)).filter((record): record is T => record !== undefined);
  }

  get size(): number {
    return this.records.size;
  }

  /** Inserts or replaces records; resolves once they are committed. A call's records commit together. */
  put(...records: T[]): Promise<void> {
    return records.length === 0 ? Promise.resolve() : this.enqueue({ kind: 'put', records });
  }

  /**
   * Changes a record in memory only, for a state that need not survive a restart (a source being
   * PROCESSING is PENDING again after one, and resumes either way): it costs no commit.
   */
  setTransient(record: T): void {
    if (this.records.has(record.id)) this.remember(record);
  }

  /** Deletes records; resolves once the delete is committed. */
  delete(ids: readonly string[]): Promise<void> {
    return ids.length === 0 ? Promise.resolve() : this.enqueue({ kind: 'delete', ids });
  }

  /**
   * Compacts files and drops old versions so many small writes do not grow the directory without bound.
   * It queues like a write: a compaction running beside a commit would conflict with it. Versions newer than
   * `olderThan` survive a run, so the run after the last write cleans once more: without it, a burst of writes
   * followed by quiet kept its last minute of versions (thousands of files) for good.
   */
  maintain(olderThan: Date): Promise<void> {
    return this.writesSinceMaintenance === 0 && !this.cleanupPending
      ? Promise.resolve()
      : this.enqueue({ kind: 'maintain', olderThan });
  }

  /** Waits for queued writes to commit, then releases the table. */
  async close(): Promise<void> {
    await this.flushing;
    this.table.close();
  }

  private enqueue(write: Write<T>): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ write, resolve, reject });
      this.flushing ??= this.flush();
    });
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.takeRun();
      try {
        await this.commit(batch.map((queued) => queued.write));
        for (const queued of batch) queued.resolve();
      } catch (error) {
        for (const queued of batch) queued.reject(error);
      }
      await this.compactNow().catch(() => {});
    }
    this.flushing = undefined;
  }

  /**
   * Every commit adds a small fragment, and updates slow down as fragments pile up (10 ms at first, 40 ms
   * after a few hundred); compacting every 50 commits keeps them near the start.
   */
  private async compactNow(): Promise<void> {
    if (++this.commitsSinceCompaction < COMMITS_BETWEEN_COMPACTIONS) return;
    this.commitsSinceCompaction = 0;
    await this.table.optimize({ cleanupOlderThan: new Date(Date.now() - 60_000) });
  }

  /** The longest run of queued writes of one kind, so a put never overtakes a delete queued before it. */
  private takeRun(): QueuedWrite<T>[] {
    const kind = this.queue[0]?.write.kind;
    const end = this.queue.findIndex((queued) => queued.write.kind !== kind);
    return this.queue.splice(0, end === -1 ? this.queue.length : end);
  }

  private async commit(writes: Write<T>[]): Promise<void> {
    const first = writes[0];
    if (first?.kind === 'maintain') {
      this.cleanupPending = this.writesSinceMaintenance > 0;
      this.writesSinceMaintenance = 0;
      await this.table.optimize({ cleanupOlderThan: first.olderThan });
      return;
    }
    this.writesSinceMaintenance += 1;
    if (first?.kind === 'delete') {
      const ids = writes.flatMap((write) => (write.kind === 'delete' ? write.ids : []));
      for (let start = 0; start < ids.length; start += 500) {
        await this.table.delete(`id IN (${idList(ids.slice(start, start + 500))})`);
      }
      for (const id of ids) this.forget(id);
      return;
    }
    // New records are appended (a few ms); records that exist are replaced by id, which costs a join. A
    // call's records go one way together, so each put stays one commit.
    const inserts = new Map<string, T>();
    const updates = new Map<string, T>();
    for (const write of writes) {
      if (write.kind !== 'put') continue;
      const isNew = write.records.every((record) => !this.records.has(record.id) || inserts.has(record.id));
      for (const record of write.records) (isNew ? inserts : updates).set(record.id, record);
    }
    if (inserts.size > 0) await this.table.add([...inserts.values()].map((record) => this.row(record)));
    for (const record of inserts.values()) this.remember(record);
    if (updates.size === 1) {
      const [record] = [...updates.values()] as [T];
      const { id: _id, ...values } = this.row(record);
      await this.table.update({ where: `id = ${quote(record.id)}`, values });
    } else if (updates.size > 1) {
      const rows = [...updates.values()].map((record) => this.row(record));
      await this.table.mergeInsert('id').whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(rows);
    }
    for (const record of updates.values()) this.remember(record);
  }

  private row(record: T) {
    return {
      id: record.id,
      account_id: record.account_id,
      parent_id: this.parentOf(record),
      body: JSON.stringify(record),
    };
  }

  private remember(record: T): void {
    const previous = this.records.get(record.id);
    if (previous) this.children.get(this.parentOf(previous))?.delete(record.id);
    this.records.set(record.id, record);
    const parent = this.parentOf(record);
    let siblings = this.children.get(parent);
    if (!siblings) {
      siblings = new Set();
      this.children.set(parent, siblings);
    }
    siblings.add(record.id);
  }

  private forget(id: string): void {
    const record = this.records.get(id);
    if (!record) return;
    this.records.delete(id);
    const parent = this.parentOf(record);
    const siblings = this.children.get(parent);
    siblings?.delete(id);
    if (siblings?.size === 0) this.children.delete(parent);
  }
}
