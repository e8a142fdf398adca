import type { Connection, Table } from '@lancedb/lancedb';
import { Table as ArrowTable, Field, makeData, RecordBatch, Schema, Struct, Utf8 } from 'apache-arrow';
import { Journal } from './journal.ts';
import { utf8Column } from './utf8-column.ts';

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

/** Store commits between compactions: each adds a fragment, and later writes slow down as fragments pile up. */
const COMMITS_BETWEEN_COMPACTIONS = 50;
/** How long journaled writes wait to be stored in LanceDB together; a crash in between loses nothing. */
const CHECKPOINT_DELAY_MS = 1_000;

/** Some fields of one record, set over what it holds. */
interface RecordPatch<T> {
  id: string;
  changes: Partial<T>;
}

type JournalEntry<T> = { put: T[] } | { patch: RecordPatch<T>[] } | { delete: string[] };

/**
 * A LanceDB table of small records (applications, sources, …) with a write-through cache in memory and a
 * write-ahead journal in front. A write resolves once it is in the journal (an append of microseconds, which
 * survives a crash or kill), and the cache changes only then, so a failed write changes nothing.
 * About once a second the journaled writes are stored in LanceDB together (an append for new records, one
 * merge for changed ones) and their journal segment is deleted; segments a crash left are replayed at open.
 * Reads come from memory, which keeps lookups per request in microseconds.
 *
 * Why the journal: a LanceDB commit costs 5 to 40 ms whatever its size, and thousands of sources ingesting at
 * once (each created, then marked COMPLETED) queued behind one another's commits.
 */
export class RecordTable<T extends StoredRecord> {
  readonly name: string;
  private readonly table: Table;
  private readonly parentOf: (record: T) => string;
  private readonly records = new Map<string, T>();
  /** Ids by parent id (a source's application, a message's conversation), so children are found without a scan. */
  private readonly children = new Map<string, Set<string>>();
  /** Ids of the rows in the LanceDB table, which decide between appending a record and merging it. */
  private readonly stored = new Set<string>();
  private journal!: Journal;
  /** In the journal's current segment, not yet in LanceDB. */
  private unstored: JournalEntry<T>[] = [];
  /** Taken from closed segments by a checkpoint whose store failed; retried first. */
  private retrying: JournalEntry<T>[] = [];
  private closedSegments: string[] = [];
  /** LanceDB operations, one at a time: a compaction beside a commit would conflict with it. */
  private storing: Promise<void> = Promise.resolve();
  private checkpointTimer: NodeJS.Timeout | undefined;
  private closing = false;
  private writesSinceMaintenance = 0;
  private commitsSinceCompaction = 0;
  private cleanupPending = false;

  private constructor(name: string, table: Table, parentOf: (record: T) => string) {
    this.name = name;
    this.table = table;
    this.parentOf = parentOf;
  }

  /** Opens the table and its journal in `journalDirectory`, storing in LanceDB what an earlier run journaled. */
  static async open<T extends StoredRecord>(
    connection: Connection,
    name: string,
    parentOf: (record: T) => string,
    journalDirectory: string,
  ): Promise<RecordTable<T>> {
    const table = await connection.createEmptyTable(name, RECORD_SCHEMA, { existOk: true });
    const recordTable = new RecordTable<T>(name, table, parentOf);
    for (const row of await table.query().select(['body']).toArray()) {
      const record = JSON.parse(String(row.body)) as T;
      recordTable.remember(record);
      recordTable.stored.add(record.id);
    }
    const { journal, found } = await Journal.open(journalDirectory, name);
    recordTable.journal = journal;
    const replayed = found.flatMap((segment) => segment.entries as JournalEntry<T>[]);
    for (const entry of replayed) recordTable.applyToCache(entry);
    await recordTable.store(replayed);
    await journal.remove(found.map((segment) => segment.path));
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

  /** Inserts or replaces records; resolves once they are journaled. A call's records are written together. */
  put(...records: T[]): Promise<void> {
    return records.length === 0 ? Promise.resolve() : this.write({ put: records });
  }

  /**
   * Sets the same fields of some records; resolves once the change is journaled. Only the changed fields are
   * written, so marking a text source COMPLETED does not copy its whole text again (a fifth of the main thread's
   * work in a bulk ingestion was serializing records). A record that is gone when the change lands stays gone.
   * A field cannot be removed this way: the journal's JSON would drop an undefined value, and a replay with it.
   */
  patch(ids: readonly string[], changes: Partial<Omit<T, 'id'>>): Promise<void> {
    if (ids.length === 0) return Promise.resolve();
    return this.write({ patch: ids.map((id) => ({ id, changes: changes as Partial<T> })) });
  }

  /**
   * Changes a record in memory only, for a state that need not survive a restart (a source being
   * PROCESSING is PENDING again after one, and resumes either way): it costs no journal write. A checkpoint
   * storing the record for another change may store this state with it, which must be as harmless.
   */
  setTransient(record: T): void {
    if (this.records.has(record.id)) this.remember(record);
  }

  /** Deletes records; resolves once the delete is journaled. */
  delete(ids: readonly string[]): Promise<void> {
    return ids.length === 0 ? Promise.resolve() : this.write({ delete: [...ids] });
  }

  /**
   * Compacts files and drops old versions so many small writes do not grow the directory without bound.
   * Versions newer than `olderThan` survive a run, so the run after the last write cleans once more: without it,
   * a burst of writes followed by quiet kept its last minute of versions (thousands of files) for good.
   */
  maintain(olderThan: Date): Promise<void> {
    if (this.writesSinceMaintenance === 0 && !this.cleanupPending) return Promise.resolve();
    return this.onStoringLane(async () => {
      this.cleanupPending = this.writesSinceMaintenance > 0;
      this.writesSinceMaintenance = 0;
      await this.table.optimize({ cleanupOlderThan: olderThan });
    });
  }

  /**
   * Waits for queued writes, stores every journaled one in LanceDB and deletes the journal. If storing fails,
   * the journal stays and the next open stores it.
   */
  async close(): Promise<void> {
    this.closing = true;
    clearTimeout(this.checkpointTimer);
    this.journal.close();
    await this.storing.catch(() => {});
    try {
      await this.store([...this.retrying, ...this.unstored]);
      await this.journal.remove([...this.closedSegments, this.journal.currentSegment]);
    } catch {
      // Kept in the journal, which the next open replays.
    }
    this.table.close();
  }

  private write(entry: JournalEntry<T>): Promise<void> {
    return this.journal.append(entry, () => {
      this.applyToCache(entry);
      this.unstored.push(entry);
      this.scheduleCheckpoint();
    });
  }

  private applyToCache(entry: JournalEntry<T>): void {
    if ('put' in entry) for (const record of entry.put) this.remember(record);
    else if ('patch' in entry) {
      for (const { id, changes } of entry.patch) {
        const record = this.records.get(id);
        if (record) this.remember({ ...record, ...changes });
      }
    } else for (const id of entry.delete) this.forget(id);
  }

  /** Moves the journal's current segment into LanceDB: later writes go to a new segment meanwhile. */
  private checkpoint(): void {
    this.checkpointTimer = undefined;
    if (this.closing) return;
    let closedSegment: string;
    try {
      closedSegment = this.journal.rotate();
    } catch {
      this.scheduleCheckpoint();
      return;
    }
    // Taken after the rotation, which writes what was pending into the closed segment first. From here on,
    // `closedSegments` hold exactly the entries in `retrying`.
    this.closedSegments.push(closedSegment);
    this.retrying.push(...this.unstored);
    this.unstored = [];
    void this.onStoringLane(() => this.storeClosedSegments()).catch(() => this.scheduleCheckpoint());
  }

  /**
   * Stores what the closed segments hold, then deletes them. Both are taken when the store starts, as a
   * checkpoint may close another segment while it runs; on failure they go back for the next checkpoint.
   */
  private async storeClosedSegments(): Promise<void> {
    const entries = this.retrying;
    const segments = this.closedSegments;
    this.retrying = [];
    this.closedSegments = [];
    try {
      await this.store(entries);
    } catch (error) {
      this.retrying = [...entries, ...this.retrying];
      this.closedSegments = [...segments, ...this.closedSegments];
      throw error;
    }
    await this.journal.remove(segments);
    await this.compactIfDue();
  }

  /** A checkpoint in a second; what it could not store is still in the journal, for the next one or next open. */
  private scheduleCheckpoint(): void {
    if (!this.closing)
      this.checkpointTimer ??= setTimeout(() => this.checkpoint(), CHECKPOINT_DELAY_MS).unref();
  }

  private onStoringLane(run: () => Promise<void>): Promise<void> {
    const next = this.storing.catch(() => {}).then(run);
    this.storing = next;
    return next;
  }

  private async compactIfDue(): Promise<void> {
    if (this.commitsSinceCompaction < COMMITS_BETWEEN_COMPACTIONS) return;
    this.commitsSinceCompaction = 0;
    await this.table.optimize({ cleanupOlderThan: new Date(Date.now() - 60_000) });
  }

  /**
   * Writes the final state of every record the entries touch: new ones appended, changed ones merged by id,
   * deleted ones removed. Replaying entries already stored (a crash between storing and deleting the journal)
   * merges the same values again, so it never duplicates a row. A patched record is stored as the cache holds
   * it, which may include later journaled writes; those are stored again with their own segment.
   */
  private async store(entries: JournalEntry<T>[]): Promise<void> {
    const latest = new Map<string, T | null>();
    for (const entry of entries) {
      if ('put' in entry) for (const record of entry.put) latest.set(record.id, record);
      else if ('patch' in entry) {
        for (const { id } of entry.patch) {
          const record = this.records.get(id);
          if (record) latest.set(id, record);
        }
      } else for (const id of entry.delete) latest.set(id, null);
    }
    const inserts: T[] = [];
    const updates: T[] = [];
    const deletes: string[] = [];
    for (const [id, record] of latest) {
      if (record === null) {
        if (this.stored.has(id)) deletes.push(id);
      } else (this.stored.has(id) ? updates : inserts).push(record);
    }
    if (inserts.length > 0) {
      await this.commit(() => this.table.add(this.rows(inserts)));
      for (const record of inserts) this.stored.add(record.id);
    }
    if (updates.length > 0) {
      const rows = this.rows(updates);
      await this.commit(() =>
        this.table.mergeInsert('id').whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(rows),
      );
    }
    for (let start = 0; start < deletes.length; start += 500) {
      const ids = deletes.slice(start, start + 500);
      await this.commit(() => this.table.delete(`id IN (${idList(ids)})`));
      for (const id of ids) this.stored.delete(id);
    }
  }

  private async commit(run: () => Promise<unknown>): Promise<void> {
    await run();
    this.writesSinceMaintenance += 1;
    this.commitsSinceCompaction += 1;
  }

  /** The records as an Arrow table, built column by column (LanceDB's conversion of objects is much slower). */
  private rows(records: T[]): ArrowTable {
    const children = [
      utf8Column(records.map((record) => record.id)),
      utf8Column(records.map((record) => record.account_id)),
      utf8Column(records.map((record) => this.parentOf(record))),
      utf8Column(records.map((record) => JSON.stringify(record))),
    ];
    const length = records.length;
    const batch = new RecordBatch(
      RECORD_SCHEMA,
      makeData({ type: new Struct(RECORD_SCHEMA.fields), length, children }),
    );
    return new ArrowTable(RECORD_SCHEMA, [batch]);
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
