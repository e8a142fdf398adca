import { type Connection, Index, type Table } from '@lancedb/lancedb';
import { Field, FixedSizeList, Float32, Int32, List, Schema, Utf8 } from 'apache-arrow';
import { chunkContextText } from '../ingest/chunk.ts';
import type { Chunk } from '../ingest/types.ts';

export interface ChunkRecord extends Chunk {
  sourceId: string;
  applicationId: string;
  accountId: string;
}

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
  maintain(): Promise<void>;
  close(): Promise<void>;
}

/** Below this, a flat scan is exact and fast enough; above, an IVF index keeps vector search within budget. */
export const VECTOR_INDEX_MIN_ROWS = 50_000;
/**
 * Rows added since the last refresh are searched by a flat scan (LanceDB merges them with the indexed rows, so
 * they are found at once); past this many, that scan costs more than refreshing the indexes.
 */
const UNINDEXED_ROWS_BEFORE_REFRESH = 5_000;
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
  return new LanceChunkIndex(table, embedder);
}

function chunkSchema(dimensions: number): Schema {
  return new Schema([
    new Field('accountId', new Utf8(), false),
    new Field('applicationId', new Utf8(), false),
    new Field('sourceId', new Utf8(), false),
    new Field('chunkIndex', new Int32(), false),
    new Field('page', new Int32(), false),
    new Field('text', new Utf8(), false),
    new Field('headings', new List(new Field('item', new Utf8(), true)), false),
    new Field('url', new Utf8(), true),
    new Field('searchText', new Utf8(), false),
    new Field('vector', new FixedSizeList(dimensions, new Field('item', new Float32(), true)), false),
  ]);
}

async function ensureFullTextIndex(table: Table): Promise<void> {
  const indices = await table.listIndices();
  if (indices.some((index) => index.columns.includes('searchText'))) return;
  // Stemming and stop words measured better than plain tokens on both QA sets (bench/retrieval.ts).
  await table.createIndex('searchText', {
    config: Index.fts({ stem: true, removeStopWords: true, language: 'English', withPosition: false }),
  });
}

class LanceChunkIndex implements ChunkIndex {
  readonly embedderId: string;
  private readonly dimensions: number;
  private readonly table: Table;
  private writes: Promise<unknown> = Promise.resolve();
  private unindexedRows = 0;

  constructor(table: Table, embedder: { id: string; dimensions: number }) {
    this.table = table;
    this.embedderId = embedder.id;
    this.dimensions = embedder.dimensions;
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
      await this.table.add(records.map((record, position) => toRow(record, vectors[position]!)));
      this.unindexedRows += records.length;
      if (this.unindexedRows >= UNINDEXED_ROWS_BEFORE_REFRESH) await this.refreshIndexes();
    });
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

  maintain(): Promise<void> {
    return this.serialize(async () => {
      await this.table.optimize({ cleanupOlderThan: new Date(Date.now() - KEEP_VERSIONS_FOR_MS) });
      this.unindexedRows = 0;
      await this.ensureVectorIndex();
    });
  }

  async close(): Promise<void> {
    await this.writes;
    this.table.close();
  }

  /** One write at a time: LanceDB commits concurrent writers by retrying, which is slower and can conflict. */
  private serialize<T>(write: () => Promise<T>): Promise<T> {
    const result = this.writes.then(write);
    this.writes = result.catch(() => undefined);
    return result;
  }

  private async refreshIndexes(): Promise<void> {
    await this.table.optimize({ cleanupOlderThan: new Date(Date.now() - KEEP_VERSIONS_FOR_MS) });
    this.unindexedRows = 0;
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

function toRow(record: ChunkRecord, vector: Float32Array): Record<string, unknown> {
  return {
    accountId: record.accountId,
    applicationId: record.applicationId,
    sourceId: record.sourceId,
    chunkIndex: record.index,
    page: record.page,
    text: record.text,
    headings: record.headings,
    url: record.url ?? null,
    searchText: chunkContextText(record),
    vector: Array.from(vector),
  };
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
