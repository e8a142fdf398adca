import { type Connection, Index, type Table } from '@lancedb/lancedb';
import type { Schema } from 'apache-arrow';
import { createTreeSync } from '../durable.ts';
import { type ChunkRecord, chunkRows, chunkSchema } from './chunk-rows.ts';
import { decideRefresh, type RefreshState } from './refresh-policy.ts';

export type { ChunkRecord } from './chunk-rows.ts';

/** A stored chunk, as `GET /sources/{id}/chunks` shows it. */
export interface StoredChunk {
  index: number;
  page: number;
  text: string;
  headings: string[];
  url?: string;
}

export interface EmbeddedText {
  searchText: string;
  vector: Float32Array;
}

export interface ChunkHit {
  sourceId: string;
  /** The ingestion attempt that wrote the chunk: only the source's live generation may be shown. */
  generation: number;
  chunkIndex: number;
  page: number;
  text: string;
  headings: string[];
  url?: string;
  /**
   * Higher is more relevant. Full-text: BM25 (unbounded); vector: cosine similarity in [-1, 1]; once retrieval
   * fused the two (retrieve/fusion.ts) and reranked them, in [0, 1].
   */
  score: number;
}

/** Chunks to remove: all of an application's, all of a source's, or a source's generations in a range. */
export type ChunkSelection =
  | { applicationId: string }
  | { sourceId: string; generationsFrom?: number; generationsBelow?: number };

export interface ChunkIndex {
  readonly embedderId: string;
  /** Reads the table's current version: throws when LanceDB cannot be reached. */
  check(): Promise<void>;
  add(records: ChunkRecord[], vectors: Float32Array[]): Promise<void>;
  delete(selections: ChunkSelection[]): Promise<void>;
  /** A generation's chunks in order: all of them, or its first `first`. */
  list(sourceId: string, generation: number, first?: number): Promise<StoredChunk[]>;
  /** The text each chunk of a generation was embedded from, with its vector: what a new version may reuse. */
  vectors(sourceId: string, generation: number): Promise<EmbeddedText[]>;
  fullTextSearch(query: string, applicationId: string, limit: number): Promise<ChunkHit[]>;
  vectorSearch(vector: Float32Array, applicationId: string, limit: number): Promise<ChunkHit[]>;
  /** Resolves once every committed chunk is on disk, not only in the operating system's cache. */
  makeDurable(): Promise<void>;
  /** Index upkeep that may take long: the vector index once the table is large, old versions removed. */
  maintain(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Below this, a flat scan is exact and fast enough; above, an HNSW index keeps vector search within budget. A
 * flat scan of 10,000 rows of 1,024 dimensions took 28 to 44 ms, the index 3.6 ms (built in 4.6 s).
 */
export const VECTOR_INDEX_MIN_ROWS = 8_000;
const MAX_VECTOR_INDEX_SEGMENTS = 4;
/** Readers may still hold a version for a moment; versions older than this are deleted when refreshing. */
const KEEP_VERSIONS_FOR_MS = 60_000;
/** Predicates per delete: each is a term of one filter expression. */
const SELECTIONS_PER_DELETE = 500;
const HIT_COLUMNS = ['sourceId', 'generation', 'chunkIndex', 'page', 'text', 'url', 'headings'];

export function chunkTableName(embedderId: string): string {
  return `chunks_${embedderId.toLowerCase().replace(/[^a-z0-9]+/g, '_')}`;
}

export interface ChunkIndexOptions {
  /** Where LanceDB writes: a directory, whose file system is synced after commits, or an object store's URI. */
  directory: string;
  /** Whether more chunks are on their way: an index refresh waits for the end of a burst. */
  busy: () => boolean;
  onRefreshError: (error: unknown) => void;
  /**
   * Set when other processes write the table too (they share a database): index upkeep is then done by one
   * process at a time, the one `leads` says leads, and it decides from what the table holds (its versions and
   * unindexed rows) rather than from what it wrote itself; `busy` says whether any process is ingesting.
   */
  shared?: { leads: () => Promise<boolean>; busy: () => Promise<boolean> };
}

/** How often the leading process looks at a shared table to decide on a refresh. */
const OBSERVE_MS = 1_000;
/** Commit attempts of a write that meets a conflicting commit of another process, and the longest wait. */
const COMMIT_ATTEMPTS = 8;
const MAX_RETRY_WAIT_MS = 2_000;

/** LanceDB's messages for a commit that lost to a concurrent one and may succeed when made again. */
const CONFLICT = /commit conflict|preempted by concurrent|write contention|after \d+ retries/i;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Runs a LanceDB write again when it lost a commit race to another process: commits are optimistic, and a
 * compaction conflicts with a delete of the rows it rewrote. Full jitter keeps the retries of several processes
 * from meeting again.
 */
export async function retryConflicts<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (attempt >= COMMIT_ATTEMPTS || !CONFLICT.test(String((error as Error)?.message ?? error)))
        throw error;
      await sleep(Math.random() * Math.min(MAX_RETRY_WAIT_MS, 25 * 2 ** attempt));
    }
  }
}

/** Opens (creating when absent) the chunks table of one embedder, so vectors of two embedders never mix. */
export async function openChunkIndex(
  connection: Connection,
  embedder: { id: string; dimensions: number },
  options: ChunkIndexOptions,
): Promise<ChunkIndex> {
  const name = chunkTableName(embedder.id);
  const exists = (await connection.tableNames()).includes(name);
  const table = exists
    ? await connection.openTable(name)
    : await retryConflicts(() =>
        connection.createEmptyTable(name, chunkSchema(embedder.dimensions), { existOk: true }),
      );
  await retryConflicts(() => addGenerationColumn(table));
  await retryConflicts(() => ensureIndexes(table));
  return new LanceChunkIndex(table, embedder, await table.countRows(), options);
}

/** Tables written before chunks had generations hold one generation each: 0, which the import makes live. */
async function addGenerationColumn(table: Table): Promise<void> {
  const schema = await table.schema();
  if (schema.fields.some((field) => field.name === 'generation')) return;
  await table.addColumns([{ name: 'generation', valueSql: 'cast(0 as int)' }]);
}

async function ensureIndexes(table: Table): Promise<void> {
  const indexed = new Set((await table.listIndices()).flatMap((index) => index.columns));
  if (!indexed.has('searchText')) {
    // Stemming and stop words measured better than plain tokens on both QA sets (bench/retrieval.ts).
    await table.createIndex('searchText', {
      config: Index.fts({ stem: true, removeStopWords: true, language: 'English', withPosition: false }),
    });
  }
  // Every search is filtered by application, and deletes and listings by source: scalar indexes let LanceDB
  // look those up instead of testing every row. B-trees, as both may have many distinct values.
  if (!indexed.has('applicationId')) await table.createIndex('applicationId', { config: Index.btree() });
  if (!indexed.has('sourceId')) await table.createIndex('sourceId', { config: Index.btree() });
}

function quote(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

function predicate(selection: ChunkSelection): string {
  if ('applicationId' in selection) return `applicationId = ${quote(selection.applicationId)}`;
  const terms = [`sourceId = ${quote(selection.sourceId)}`];
  if (selection.generationsFrom !== undefined) terms.push(`generation >= ${selection.generationsFrom}`);
  if (selection.generationsBelow !== undefined) terms.push(`generation < ${selection.generationsBelow}`);
  return terms.length === 1 ? terms[0]! : `(${terms.join(' AND ')})`;
}

class LanceChunkIndex implements ChunkIndex {
  readonly embedderId: string;
  private readonly dimensions: number;
  private readonly table: Table;
  private readonly schema: Schema;
  private readonly options: ChunkIndexOptions;
  /** LanceDB commits one writer at a time best: concurrent writers conflict and retry. */
  private writes: Promise<void> = Promise.resolve();
  private unindexedRows = 0;
  private indexedRows: number;
  private commitsSinceRefresh = 0;
  private lastCommitAt = performance.now();
  private lastRefreshAt = performance.now();
  private lastRefreshMs = 0;
  private refreshTimer: NodeJS.Timeout | undefined;
  /** A refresh keeps the last minute's versions; the next maintenance, a minute on, removes them. */
  private versionsToClean = false;
  private closed = false;
  /** Shared tables: the version the leader last looked at, and its next look. */
  private seenVersion: number | undefined;
  private observeTimer: NodeJS.Timeout | undefined;
  /** The look in progress: closing waits for it, as LanceDB refuses to close a table a read is using. */
  private observing: Promise<void> | undefined;
  /** Makes LanceDB's new files in a local directory durable; an object store has by the time it answers. */
  private readonly syncWrites: () => Promise<void>;
  /** Whether the last look found (or built) a vector index within its segment limit. */
  private vectorIndexCurrent = false;

  constructor(
    table: Table,
    embedder: { id: string; dimensions: number },
    rows: number,
    options: ChunkIndexOptions,
  ) {
    this.table = table;
    this.indexedRows = rows;
    this.embedderId = embedder.id;
    this.dimensions = embedder.dimensions;
    this.schema = chunkSchema(embedder.dimensions);
    this.options = options;
    this.syncWrites = /^[a-z][a-z0-9+.-]*:\/\//i.test(options.directory)
      ? async () => {}
      : createTreeSync(options.directory);
    if (options.shared) this.scheduleObservation();
  }

  async check(): Promise<void> {
    await this.table.version();
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
    return this.serialize(async () => {
      const rows = chunkRows(this.schema, records, vectors);
      await retryConflicts(() => this.table.add(rows));
      this.unindexedRows += records.length;
      this.commitsSinceRefresh += 1;
      this.lastCommitAt = performance.now();
      this.scheduleRefresh(0);
    });
  }

  delete(selections: ChunkSelection[]): Promise<void> {
    if (selections.length === 0) return Promise.resolve();
    return this.serialize(async () => {
      for (let start = 0; start < selections.length; start += SELECTIONS_PER_DELETE) {
        const slice = selections.slice(start, start + SELECTIONS_PER_DELETE);
        await retryConflicts(() => this.table.delete(slice.map(predicate).join(' OR ')));
        this.commitsSinceRefresh += 1;
      }
      this.scheduleRefresh(0);
    });
  }

  async list(sourceId: string, generation: number, first?: number): Promise<StoredChunk[]> {
    const within = first === undefined ? '' : ` AND chunkIndex < ${Math.floor(first)}`;
    const rows: ChunkRow[] = await this.table
      .query()
      .where(`sourceId = ${quote(sourceId)} AND generation = ${generation}${within}`)
      .select(HIT_COLUMNS)
      .toArray();
    return rows.map((row) => toStoredChunk(row)).sort((left, right) => left.index - right.index);
  }

  async vectors(sourceId: string, generation: number): Promise<EmbeddedText[]> {
    const table = await this.table
      .query()
      .where(`sourceId = ${quote(sourceId)} AND generation = ${generation}`)
      .select(['searchText', 'vector'])
      .toArrow();
    const texts = table.getChild('searchText');
    const vectors = table.getChild('vector');
    if (!texts || !vectors) return [];
    const found: EmbeddedText[] = [];
    for (let row = 0; row < table.numRows; row++) {
      const vector = vectors.get(row) as { toArray(): Float32Array } | null;
      if (vector)
        found.push({ searchText: String(texts.get(row)), vector: Float32Array.from(vector.toArray()) });
    }
    return found;
  }

  async fullTextSearch(query: string, applicationId: string, limit: number): Promise<ChunkHit[]> {
    if (query.trim() === '') return [];
    const rows: ChunkRow[] = await this.table
      .query()
      .fullTextSearch(query, { columns: ['searchText'] })
      .where(`applicationId = ${quote(applicationId)}`)
      .select([...HIT_COLUMNS, '_score'])
      .limit(limit)
      .toArray();
    return rows.map((row) => toHit(row, Number(row._score)));
  }

  async vectorSearch(vector: Float32Array, applicationId: string, limit: number): Promise<ChunkHit[]> {
    const rows: ChunkRow[] = await this.table
      .vectorSearch(vector)
      .distanceType('cosine')
      .where(`applicationId = ${quote(applicationId)}`)
      .select([...HIT_COLUMNS, '_distance'])
      .limit(limit)
      .toArray();
    return rows.map((row) => toHit(row, 1 - Number(row._distance)));
  }

  makeDurable(): Promise<void> {
    // On the write lane, so no write is half done while the files it added are synced.
    return this.serialize(() => this.syncWrites());
  }

  async maintain(): Promise<void> {
    if (this.options.shared && !(await this.options.shared.leads())) return;
    return this.serialize(async () => {
      if (this.unindexedRows > 0 || this.commitsSinceRefresh > 0 || this.versionsToClean) {
        await this.refreshIndexes();
        this.versionsToClean = false;
      }
      await this.ensureVectorIndex();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.refreshTimer);
    clearTimeout(this.observeTimer);
    await this.observing;
    await this.writes;
    this.table.close();
  }

  private serialize(run: () => Promise<void>): Promise<void> {
    const next = this.writes.then(run);
    this.writes = next.catch(() => {});
    return next;
  }

  /** What the refresh policy decides on: this table's rows and commits, and whether ingestion is busy. */
  private refreshState(now: number, busy: boolean): RefreshState {
    return {
      unindexedRows: this.unindexedRows,
      indexedRows: this.indexedRows,
      commitsSinceRefresh: this.commitsSinceRefresh,
      msSinceLastCommit: now - this.lastCommitAt,
      msSinceLastRefresh: now - this.lastRefreshAt,
      lastRefreshMs: this.lastRefreshMs,
      busy,
      vectorIndexMissing:
        !this.vectorIndexCurrent && this.indexedRows + this.unindexedRows >= VECTOR_INDEX_MIN_ROWS,
    };
  }

  /** Asks the refresh policy (refresh-policy.ts) again in `ms`; one question is pending at a time. */
  private scheduleRefresh(ms: number): void {
    // A shared table's leader asks on its own schedule (observe), the other processes never.
    if (this.closed || this.options.shared) return;
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => this.considerRefresh(), ms).unref();
  }

  private considerRefresh(): void {
    this.refreshTimer = undefined;
    const now = performance.now();
    const decision = decideRefresh(this.refreshState(now, this.options.busy()));
    if (decision.kind === 'later') this.scheduleRefresh(decision.ms);
    // Busy: the burst's end decides; until then, look again now and then.
    else if (decision.kind === 'none' && this.options.busy()) this.scheduleRefresh(1_000);
    else if (decision.kind === 'now') {
      this.serialize(() => this.refreshAsDecided(this.options.busy())).catch((error: unknown) => {
        this.options.onRefreshError(error);
        this.scheduleRefresh(10_000);
      });
    }
  }

  private scheduleObservation(): void {
    if (this.closed) return;
    this.observeTimer = setTimeout(() => {
      this.observing = this.observe()
        .catch((error: unknown) => this.options.onRefreshError(error))
        .finally(() => {
          this.observing = undefined;
          this.scheduleObservation();
        });
    }, OBSERVE_MS).unref();
  }

  /**
   * The leader of a shared table: counts the commits every process made since the last refresh (the table's
   * versions), reads the rows the full-text index does not cover yet, and asks the refresh policy.
   */
  private async observe(): Promise<void> {
    const shared = this.options.shared!;
    if (this.closed) return;
    if (!(await shared.leads())) {
      this.seenVersion = undefined;
      return;
    }
    const version = await this.table.version();
    if (version !== this.seenVersion) {
      if (this.seenVersion !== undefined) {
        this.commitsSinceRefresh += Math.max(0, version - this.seenVersion);
        this.lastCommitAt = performance.now();
      }
      this.seenVersion = version;
      const fullText = (await this.table.listIndices()).find((index) => index.columns.includes('searchText'));
      this.unindexedRows = fullText?.numUnindexedRows ?? 0;
      this.indexedRows = fullText?.numIndexedRows ?? this.indexedRows;
    }
    const now = performance.now();
    const busy = await shared.busy();
    const decision = decideRefresh(this.refreshState(now, busy));
    if (decision.kind !== 'now') return;
    await this.serialize(() => this.refreshAsDecided(busy));
  }

  /** A refresh the policy asked for; after a burst, not in one, the vector index too (it holds the lane for seconds). */
  private async refreshAsDecided(busy: boolean): Promise<void> {
    await this.refreshIndexes();
    this.versionsToClean = true;
    if (!busy) await this.ensureVectorIndex();
  }

  private async refreshIndexes(): Promise<void> {
    if (this.closed) return;
    const started = performance.now();
    await retryConflicts(() =>
      this.table.optimize({ cleanupOlderThan: new Date(Date.now() - KEEP_VERSIONS_FOR_MS) }),
    );
    this.unindexedRows = 0;
    this.commitsSinceRefresh = 0;
    this.indexedRows = await this.table.countRows();
    // The refresh's own versions are not commits to count.
    if (this.options.shared) this.seenVersion = await this.table.version();
    this.lastRefreshAt = performance.now();
    this.lastRefreshMs = this.lastRefreshAt - started;
    // Its new manifest must not outlive a power cut that the index files it names do not.
    await this.syncWrites();
  }

  /**
   * Builds the vector index once the table is large enough, and again when refreshes have added too many
   * segments to it: each refresh indexes the new rows as a segment of their own, and a search visits every
   * segment (after a bulk ingestion of 20 batches, 16 segments took a search from 3.6 to 14 ms).
   */
  private async ensureVectorIndex(): Promise<void> {
    const existing = (await this.table.listIndices()).find((index) => index.columns.includes('vector'));
    const segments = existing ? ((await this.table.indexStats(existing.name))?.numIndices ?? 1) : 0;
    this.vectorIndexCurrent = existing !== undefined && segments <= MAX_VECTOR_INDEX_SEGMENTS;
    if (this.vectorIndexCurrent) return;
    const rows = await this.table.countRows();
    if (rows < VECTOR_INDEX_MIN_ROWS) return;
    await retryConflicts(() =>
      this.table.createIndex('vector', {
        replace: true,
        config: Index.hnswSq({
          distanceType: 'cosine',
          numPartitions: Math.max(1, Math.round(rows / 20_000)),
        }),
      }),
    );
    this.vectorIndexCurrent = true;
    await this.syncWrites();
  }
}

/** A row as LanceDB returns it; list cells arrive as Arrow vectors, hence Iterable. */
interface ChunkRow {
  sourceId: string;
  generation: number;
  chunkIndex: number;
  page: number;
  text: string;
  url: string | null;
  headings: Iterable<string> | null;
  _score?: number;
  _distance?: number;
}

function toStoredChunk(row: ChunkRow): StoredChunk {
  const chunk: StoredChunk = {
    index: Number(row.chunkIndex),
    page: Number(row.page),
    text: String(row.text),
    headings: row.headings ? Array.from(row.headings, String) : [],
  };
  if (typeof row.url === 'string') chunk.url = row.url;
  return chunk;
}

function toHit(row: ChunkRow, score: number): ChunkHit {
  const { index, ...chunk } = toStoredChunk(row);
  return {
    ...chunk,
    chunkIndex: index,
    sourceId: String(row.sourceId),
    generation: Number(row.generation),
    score,
  };
}
