import { type Connection, Index, type Table } from '@lancedb/lancedb';
import type { Schema } from 'apache-arrow';
import type { Chunk } from '../ingest/types.ts';
import { type ChunkRecord, chunkRows, chunkSchema } from './chunk-rows.ts';

export type { ChunkRecord } from './chunk-rows.ts';

export interface ChunkHit {
  sourceId: string;
  chunkIndex: number;
  page: number;
  text: string;
  url?: string;
  headings: string[];
  /** Full-text: BM25 (unbounded, higher is better). Vector: cosine similarity in [-1, 1]. */
  score: number;
}

export interface SourceFilter {
  sourceIds: string[];
}

export interface ChunkIndex {
  readonly embedderId: string;
  add(records: ChunkRecord[], vectors: Float32Array[]): Promise<void>;
  deleteBySources(sourceIds: string[]): Promise<void>;
  listBySource(sourceId: string): Promise<Chunk[]>;
  countBySource(sourceId: string): Promise<number>;
  fullTextSearch(query: string, filter: SourceFilter, limit: number): Promise<ChunkHit[]>;
  vectorSearch(vector: Float32Array, filter: SourceFilter, limit: number): Promise<ChunkHit[]>;
  /**
   * Brings the indexes up to date with every row added so far: now, or, when the last refresh was recent for
   * what it cost, as soon as it is not. A request lapses if hundreds of rows are added or another request comes
   * before its turn: it is meant for the end of a burst, and the next burst's end asks again.
   */
  refresh(): Promise<void>;
  maintain(): Promise<void>;
  close(): Promise<void>;
}

/** Below this, a flat scan is exact and fast enough; above, an IVF index keeps vector search within budget. */
export const VECTOR_INDEX_MIN_ROWS = 50_000;
/**
 * Rows added since the last refresh are searched by a flat scan (LanceDB merges them with the indexed rows, so
 * they are found at once), and that scan is slow: a full-text search took 60 ms over 1,000 unindexed rows and
 * 7 ms once they were indexed. But a refresh (LanceDB's optimize: compaction, index update, cleanup) rewrites
 * the whole table and its indexes, so its cost grows with the table: at a fixed interval, a long ingestion would
 * slow down without bound. During ingestion the indexes are refreshed past this many new rows (2,000 cost the
 * QA ingestion benchmark a fifth of its rate)...
 */
const UNINDEXED_ROWS_BEFORE_REFRESH = 5_000;
/**
 * ...or past this share of the rows already indexed, whichever is more, so the rewriting adds up to a few times
 * the table however large it grows. Ingestion calls `refresh` a second after its commits stop, so searches after
 * a burst are fast again.
 */
const UNINDEXED_SHARE_BEFORE_REFRESH = 0.5;
/**
 * A refresh on request waits until the time since the last one is this many times what that one took, so
 * refreshes asked for after every burst take at most a fifth of the time, however large the table...
 */
const QUIET_TIME_PER_REFRESH_TIME = 4;
/**
 * ...unless the rows waiting are at least this share of the rows indexed, and this many: then they pay for the
 * refresh (its cost grows with the table, so per row indexed it stays bounded), and searches after a bulk
 * ingestion are fast a second after it ends rather than several later. The floor keeps a small table under
 * a steady trickle of sources from refreshing after every lull; there a refresh also pays for the versions and
 * deletes of every commit since the last one (seconds, measured under the load test).
 */
const UNINDEXED_SHARE_WORTH_A_REFRESH = 0.1;
const UNINDEXED_ROWS_WORTH_A_REFRESH = 1_000;
/**
 * Rows added after a requested refresh that make it lapse: a new bulk ingestion, which would pay for the refresh
 * in the middle of it. The few rows of a steady trickle do not, or its indexes would never be refreshed.
 */
const ROWS_THAT_MAKE_A_BURST = 500;
/**
 * Each commit adds a data file, and every later write and search pays for each file until compaction
 * (measured: a commit took 10 ms after 50 commits, 150 ms after 1,500); many small sources make many commits.
 */
const COMMITS_BEFORE_REFRESH = 50;
/** Readers may still hold a version for a moment; versions older than this are deleted on maintenance. */
const KEEP_VERSIONS_FOR_MS = 60_000;
const HIT_COLUMNS = ['sourceId', 'chunkIndex', 'page', 'text', 'url', 'headings'];

export function chunkTableName(embedderId: string): string {
  return `chunks_${embedderId.toLowerCase().replace(/[^a-z0-9]+/g, '_')}`;
}

/** Opens (creating when absent) the chunks table of one embedder, so vectors of two embedders never mix. */
export async function openChunkIndex(
  connection: Connection,
  embedder: { id: string; dimensions: number },
): Promise<ChunkIndex> {
  const name = chunkTableName(embedder.id);
  const exists = (await connection.tableNames()).includes(name);
  const table = exists
    ? await connection.openTable(name)
    : await connection.createEmptyTable(name, chunkSchema(embedder.dimensions), { existOk: true });
  await ensureFullTextIndex(table);
  await ensureSourceIndex(table);
  return new LanceChunkIndex(table, embedder, await table.countRows());
}

async function ensureFullTextIndex(table: Table): Promise<void> {
  const indices = await table.listIndices();
  if (indices.some((index) => index.columns.includes('searchText'))) return;
  // Stemming and stop words measured better than plain tokens on both QA sets (bench/retrieval.ts).
  await table.createIndex('searchText', {
    config: Index.fts({ stem: true, removeStopWords: true, language: 'English', withPosition: false }),
  });
}

type QueuedWrite =
  | {
      kind: 'add';
      records: ChunkRecord[];
      vectors: Float32Array[];
      resolve(): void;
      reject(error: unknown): void;
    }
  | { kind: 'task'; run(): Promise<void>; resolve(): void; reject(error: unknown): void };

/** Rows per LanceDB commit when grouping adds; bounds the memory one commit holds. */
const MAX_ROWS_PER_COMMIT = 20_000;

/**
 * Every search filters on the application's source ids: a scalar index lets LanceDB prefilter by lookup
 * instead of evaluating the IN list on every row. B-tree, as source ids have high cardinality (bitmaps suit
 * columns with a few thousand distinct values at most).
 */
async function ensureSourceIndex(table: Table): Promise<void> {
  const indices = await table.listIndices();
  if (indices.some((index) => index.columns.includes('sourceId'))) return;
  await table.createIndex('sourceId', { config: Index.btree() });
}

class LanceChunkIndex implements ChunkIndex {
  readonly embedderId: string;
  private readonly dimensions: number;
  private readonly table: Table;
  private readonly schema: Schema;
  private queue: QueuedWrite[] = [];
  private flushing: Promise<void> | undefined;
  private unindexedRows = 0;
  /** Rows in the table at the last refresh (at open, all of them). */
  private indexedRows: number;
  private commitsSinceRefresh = 0;
  /** When a requested refresh may run: the last one's cost, times QUIET_TIME_PER_REFRESH_TIME, after it. */
  private refreshAllowedAt = performance.now();
  /** Rows added so far, and the number of the latest requested refresh, by which a request lapses. */
  private rowsAdded = 0;
  private lastRequest = 0;
  private closed = false;

  constructor(table: Table, embedder: { id: string; dimensions: number }, rows: number) {
    this.table = table;
    this.indexedRows = rows;
    this.embedderId = embedder.id;
    this.dimensions = embedder.dimensions;
    this.schema = chunkSchema(embedder.dimensions);
  }

  add(records: ChunkRecord[], vectors: Float32Array[]): Promise<void> {
    if (records.length !== vectors.length) {
      return Promise.reject(new Error(`${records.length} chunks but ${vectors.length} vectors`));
    }
    const wrongSize = vectors.find((vector) => vector.length !== this.dimensions);
    if (wrongSize) {
      return Promise.reject(
        new Error(`vector of ${wrongSize.length} dimensions for ${this.embedderId} (${this.dimensions})`),
      );
    }
    if (records.length === 0) return Promise.resolve();
    return new Promise((resolve, reject) => this.enqueue({ kind: 'add', records, vectors, resolve, reject }));
  }

  deleteBySources(sourceIds: string[]): Promise<void> {
    if (sourceIds.length === 0) return Promise.resolve();
    return this.serialize(async () => {
      await this.table.delete(sourceIdPredicate(sourceIds));
    });
  }

  async listBySource(sourceId: string): Promise<Chunk[]> {
    const rows: ChunkRow[] = await this.table
      .query()
      .where(sourceIdPredicate([sourceId]))
      .select(['chunkIndex', 'page', 'text', 'url', 'headings'])
      .toArray();
    return rows.map((row) => toChunk(row)).sort((left, right) => left.index - right.index);
  }

  countBySource(sourceId: string): Promise<number> {
    return this.table.countRows(sourceIdPredicate([sourceId]));
  }

  async fullTextSearch(query: string, filter: SourceFilter, limit: number): Promise<ChunkHit[]> {
    if (filter.sourceIds.length === 0 || query.trim() === '') return [];
    const rows: ChunkRow[] = await this.table
      .query()
      .fullTextSearch(query, { columns: ['searchText'] })
      .where(sourceIdPredicate(filter.sourceIds))
      .select([...HIT_COLUMNS, '_score'])
      .limit(limit)
      .toArray();
    return rows.map((row) => toHit(row, Number(row._score)));
  }

  async vectorSearch(vector: Float32Array, filter: SourceFilter, limit: number): Promise<ChunkHit[]> {
    if (filter.sourceIds.length === 0) return [];
    const rows: ChunkRow[] = await this.table
      .vectorSearch(vector)
      .distanceType('cosine')
      .where(sourceIdPredicate(filter.sourceIds))
      .select([...HIT_COLUMNS, '_distance'])
      .limit(limit)
      .toArray();
    return rows.map((row) => toHit(row, 1 - Number(row._distance)));
  }

  async refresh(): Promise<void> {
    const request = ++this.lastRequest;
    const rowsBefore = this.rowsAdded;
    const wait = this.refreshAllowedAt - performance.now();
    if (wait > 0 && !this.refreshWorthIt()) await new Promise((resolve) => setTimeout(resolve, wait).unref());
    // A later request, or a new burst of rows (whose end asks again), takes this one's place; a trickle does not.
    const lapsed = () =>
      this.closed || request !== this.lastRequest || this.rowsAdded - rowsBefore >= ROWS_THAT_MAKE_A_BURST;
    if (lapsed()) return;
    await this.serialize(async () => {
      // Checked again behind the writes queued before it. A refresh by the bounds may have run meanwhile, too.
      if (!lapsed() && this.unindexedRows > 0) await this.refreshIndexes();
    });
  }

  private refreshWorthIt(): boolean {
    return (
      this.unindexedRows >=
      Math.max(UNINDEXED_ROWS_WORTH_A_REFRESH, this.indexedRows * UNINDEXED_SHARE_WORTH_A_REFRESH)
    );
  }

  maintain(): Promise<void> {
    return this.serialize(async () => {
      await this.refreshIndexes();
      await this.ensureVectorIndex();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.flushing;
    this.table.close();
  }

  private serialize(run: () => Promise<void>): Promise<void> {
    return new Promise((resolve, reject) => this.enqueue({ kind: 'task', run, resolve, reject }));
  }

  private enqueue(write: QueuedWrite): void {
    this.queue.push(write);
    this.flushing ??= this.flush();
  }

  /**
   * One write at a time: LanceDB commits concurrent writers by retrying, which is slower and can conflict.
   * Adds queued while a commit runs (many sources ingesting at once) go into the next commit together, as
   * each commit costs milliseconds whatever its size; other writes run alone, in order. (Adds could commit beside
   * a refresh, as their files do not overlap, but under the mixed load test that served a fifth fewer requests.)
   */
  private async flush(): Promise<void> {
    // Adds queued in the same turn as this one (a group of sources committed together) join its commit.
    await Promise.resolve();
    while (this.queue.length > 0) {
      const batch = this.takeBatch();
      try {
        await this.commit(batch);
        for (const write of batch) write.resolve();
      } catch (error) {
        for (const write of batch) write.reject(error);
      }
      // After the adds resolve: their sources need not wait for a refresh to be COMPLETED, as unindexed rows
      // are searchable too. A failed refresh leaves the rows counted, for the next one to try again.
      if (this.refreshDue()) await this.refreshIndexes().catch(() => {});
    }
    this.flushing = undefined;
  }

  private takeBatch(): QueuedWrite[] {
    if (this.queue[0]?.kind !== 'add') return this.queue.splice(0, 1);
    let rows = 0;
    let end = 0;
    for (const write of this.queue) {
      if (write.kind !== 'add' || (end > 0 && rows + write.records.length > MAX_ROWS_PER_COMMIT)) break;
      rows += write.records.length;
      end += 1;
    }
    return this.queue.splice(0, end);
  }

  private async commit(batch: QueuedWrite[]): Promise<void> {
    const first = batch[0]!;
    if (first.kind === 'task') {
      await first.run();
      return;
    }
    const adds = batch.filter((write) => write.kind === 'add');
    const records = adds.flatMap((write) => write.records);
    await this.table.add(
      chunkRows(
        this.schema,
        records,
        adds.flatMap((write) => write.vectors),
      ),
    );
    this.unindexedRows += records.length;
    this.commitsSinceRefresh += 1;
    this.rowsAdded += records.length;
  }

  private refreshDue(): boolean {
    return (
      this.unindexedRows >=
        Math.max(UNINDEXED_ROWS_BEFORE_REFRESH, this.indexedRows * UNINDEXED_SHARE_BEFORE_REFRESH) ||
      this.commitsSinceRefresh >= COMMITS_BEFORE_REFRESH
    );
  }

  private async refreshIndexes(): Promise<void> {
    const started = performance.now();
    await this.table.optimize({ cleanupOlderThan: new Date(Date.now() - KEEP_VERSIONS_FOR_MS) });
    this.unindexedRows = 0;
    this.commitsSinceRefresh = 0;
    this.indexedRows = await this.table.countRows();
    const ended = performance.now();
    this.refreshAllowedAt = ended + QUIET_TIME_PER_REFRESH_TIME * (ended - started);
  }

  private async ensureVectorIndex(): Promise<void> {
    const indices = await this.table.listIndices();
    if (indices.some((index) => index.columns.includes('vector'))) return;
    const rows = await this.table.countRows();
    if (rows < VECTOR_INDEX_MIN_ROWS) return;
    await this.table.createIndex('vector', {
      config: Index.hnswSq({ distanceType: 'cosine', numPartitions: Math.max(1, Math.round(rows / 20_000)) }),
    });
  }
}

/** A row as LanceDB returns it; list cells arrive as Arrow vectors, hence Iterable. */
interface ChunkRow {
  sourceId: string;
  chunkIndex: number;
  page: number;
  text: string;
  url: string | null;
  headings: Iterable<string> | null;
  _score?: number;
  _distance?: number;
}

function toChunk(row: ChunkRow): Chunk {
  const chunk: Chunk = {
    index: Number(row.chunkIndex),
    page: Number(row.page),
    text: String(row.text),
    headings: headingsOf(row),
  };
  if (typeof row.url === 'string') chunk.url = row.url;
  return chunk;
}

function toHit(row: ChunkRow, score: number): ChunkHit {
  const hit: ChunkHit = {
    sourceId: String(row.sourceId),
    chunkIndex: Number(row.chunkIndex),
    page: Number(row.page),
    text: String(row.text),
    headings: headingsOf(row),
    score,
  };
  if (typeof row.url === 'string') hit.url = row.url;
  return hit;
}

function headingsOf(row: ChunkRow): string[] {
  return row.headings ? Array.from(row.headings, String) : [];
}

function sourceIdPredicate(sourceIds: string[]): string {
  return `sourceId IN (${sourceIds.map((id) => `'${id.replaceAll("'", "''")}'`).join(', ')})`;
}
