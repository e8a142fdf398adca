import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Connection, connect } from '@lancedb/lancedb';
import { Field, FixedSizeList, Float32, Int32, List, Schema, Utf8 } from 'apache-arrow';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHashedEmbedder } from '../../daemon/embed/hashed.ts';
import {
  type ChunkIndex,
  type ChunkRecord,
  chunkTableName,
  openChunkIndex,
} from '../../daemon/store/chunk-index.ts';

const embedder = createHashedEmbedder();

function record(
  sourceId: string,
  index: number,
  text: string,
  extra: Partial<ChunkRecord> = {},
): ChunkRecord {
  return {
    sourceId,
    applicationId: 'app_1',
    accountId: 'acct_1',
    generation: 1,
    index,
    page: 1,
    text,
    headings: [],
    searchText: text,
    ...extra,
  };
}

async function addAll(chunkIndex: ChunkIndex, records: ChunkRecord[]) {
  await chunkIndex.add(records, await embedder.embed(records.map((item) => item.text)));
}

describe('chunk index', () => {
  let directory: string;
  let connection: Connection;
  let chunkIndex: ChunkIndex;
  const options = () => ({ directory, busy: () => false, onRefreshError: () => {} });

  beforeEach(async () => {
    directory = mkdtempSync(join(tmpdir(), 'ckb-chunks-'));
    connection = await connect(directory);
    chunkIndex = await openChunkIndex(connection, embedder, options());
  });

  afterEach(async () => {
    await chunkIndex.close();
    connection.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('keeps one table per embedder, with the application and source ids indexed', async () => {
    expect(await connection.tableNames()).toEqual([chunkTableName(embedder.id)]);
    const table = await connection.openTable(chunkTableName(embedder.id));
    const indexed = (await table.listIndices()).flatMap((index) => index.columns);
    expect(indexed).toEqual(expect.arrayContaining(['applicationId', 'sourceId', 'searchText']));
    table.close();
    const other = await openChunkIndex(connection, createHashedEmbedder({ dimensions: 64 }), options());
    expect((await connection.tableNames()).sort()).toEqual(
      [chunkTableName(embedder.id), chunkTableName('offline-hash-64-v1')].sort(),
    );
    await other.close();
  });

  it('finds rows by full text and by vector as soon as add resolves, before and after maintenance', async () => {
    await addAll(chunkIndex, [
      record('src_a', 0, 'Photosynthesis turns light into chemical energy.', {
        headings: ['Biology'],
        searchText: 'Biology\nPhotosynthesis turns light into chemical energy.',
      }),
      record('src_a', 1, 'The mitochondria is the powerhouse of the cell.'),
    ]);
    expect((await chunkIndex.fullTextSearch('photosynthesis', 'app_1', 5))[0]).toMatchObject({
      sourceId: 'src_a',
      generation: 1,
      chunkIndex: 0,
      page: 1,
      headings: ['Biology'],
    });
    await chunkIndex.maintain();
    await addAll(chunkIndex, [
      record('src_b', 0, 'Glaciers carve valleys over thousands of years.', {
        page: 3,
        url: 'https://example.com/ice',
      }),
    ]);
    const [textHit] = await chunkIndex.fullTextSearch('glaciers valleys', 'app_1', 5);
    expect(textHit).toMatchObject({ sourceId: 'src_b', page: 3, url: 'https://example.com/ice' });
    expect(textHit!.score).toBeGreaterThan(0);
    const [vector] = await embedder.embed(['glacier carving valleys']);
    const vectorHits = await chunkIndex.vectorSearch(vector!, 'app_1', 5);
    expect(vectorHits[0]).toMatchObject({ sourceId: 'src_b', chunkIndex: 0 });
    expect(vectorHits[0]!.score).toBeGreaterThan(vectorHits[1]!.score);
    expect((await chunkIndex.fullTextSearch('Biology', 'app_1', 5))[0]?.chunkIndex).toBe(0);
  });

  it('searches one application only, whatever its id holds', async () => {
    await addAll(chunkIndex, [
      record('src_a', 0, 'alpha topic text'),
      record('src_b', 0, 'alpha topic text too', { applicationId: "app_'2" }),
    ]);
    const hits = await chunkIndex.fullTextSearch('alpha', "app_'2", 5);
    expect(hits.map((hit) => hit.sourceId)).toEqual(['src_b']);
    const [vector] = await embedder.embed(['alpha topic']);
    expect((await chunkIndex.vectorSearch(vector!, 'app_1', 5)).map((hit) => hit.sourceId)).toEqual([
      'src_a',
    ]);
    expect(await chunkIndex.fullTextSearch('alpha', 'app_none', 5)).toEqual([]);
  });

  it('lists one generation of a source in order', async () => {
    await addAll(chunkIndex, [
      record('src_a', 1, 'second chunk of a'),
      record('src_a', 0, 'first chunk of a', { headings: ['Intro'] }),
      record('src_a', 0, 'a newer version', { generation: 2 }),
      record('src_b', 0, 'only chunk of b'),
    ]);
    expect(await chunkIndex.list('src_a', 1)).toEqual([
      { index: 0, page: 1, text: 'first chunk of a', headings: ['Intro'] },
      { index: 1, page: 1, text: 'second chunk of a', headings: [] },
    ]);
    expect(await chunkIndex.list('src_a', 2)).toEqual([
      { index: 0, page: 1, text: 'a newer version', headings: [] },
    ]);
  });

  it('deletes by application, by source, and by a range of generations, in order with the adds', async () => {
    await addAll(chunkIndex, [
      record('src_a', 0, 'generation one of a'),
      record('src_a', 0, 'generation two of a', { generation: 2 }),
      record('src_a', 0, 'generation three of a', { generation: 3 }),
      record('src_b', 0, 'only chunk of b'),
      record('src_c', 0, 'chunk of c in another application', { applicationId: 'app_2' }),
    ]);
    const [vector] = await embedder.embed(['again']);
    await Promise.all([
      chunkIndex.delete([{ sourceId: 'src_a', generationsBelow: 3 }, { applicationId: 'app_2' }]),
      chunkIndex.add([record('src_c', 0, 'added after the delete', { applicationId: 'app_2' })], [vector!]),
    ]);
    expect(await chunkIndex.list('src_a', 1)).toEqual([]);
    expect(await chunkIndex.list('src_a', 2)).toEqual([]);
    expect(await chunkIndex.list('src_a', 3)).toHaveLength(1);
    expect((await chunkIndex.list('src_c', 1)).map((chunk) => chunk.text)).toEqual([
      'added after the delete',
    ]);
    await chunkIndex.delete([
      { sourceId: 'src_a', generationsFrom: 3, generationsBelow: 4 },
      { sourceId: 'src_b' },
    ]);
    expect(await chunkIndex.list('src_a', 3)).toEqual([]);
    expect(await chunkIndex.list('src_b', 1)).toEqual([]);
  });

  it('rejects vectors that do not match the records or the embedder', async () => {
    await expect(chunkIndex.add([record('src_a', 0, 'x')], [])).rejects.toThrow(/1 chunks but 0 vectors/);
    await expect(chunkIndex.add([record('src_a', 0, 'x')], [new Float32Array(3)])).rejects.toThrow(
      /3 dimensions/,
    );
  });

  it('reopens an existing table with its rows', async () => {
    await addAll(chunkIndex, [record('src_a', 0, 'persisted text')]);
    const reopened = await openChunkIndex(connection, embedder, options());
    expect(await reopened.list('src_a', 1)).toHaveLength(1);
    await reopened.close();
  });

  it('opens a table of the layout before generations, its rows generation 0', async () => {
    const name = chunkTableName('old-embedder');
    const old = new Schema([
      new Field('accountId', new Utf8(), false),
      new Field('applicationId', new Utf8(), false),
      new Field('sourceId', new Utf8(), false),
      new Field('chunkIndex', new Int32(), false),
      new Field('page', new Int32(), false),
      new Field('text', new Utf8(), false),
      new Field('headings', new List(new Field('item', new Utf8(), true)), false),
      new Field('url', new Utf8(), true),
      new Field('searchText', new Utf8(), false),
      new Field('vector', new FixedSizeList(4, new Field('item', new Float32(), true)), false),
    ]);
    const table = await connection.createEmptyTable(name, old);
    await table.add([
      {
        accountId: 'acct_1',
        applicationId: 'app_1',
        sourceId: 'src_old',
        chunkIndex: 0,
        page: 2,
        text: 'an old chunk about lighthouses',
        headings: [],
        url: null,
        searchText: 'an old chunk about lighthouses',
        vector: [1, 0, 0, 0],
      },
    ]);
    table.close();
    const reopened = await openChunkIndex(connection, { id: 'old-embedder', dimensions: 4 }, options());
    expect(await reopened.list('src_old', 0)).toEqual([
      { index: 0, page: 2, text: 'an old chunk about lighthouses', headings: [] },
    ]);
    await reopened.add(
      [record('src_new', 0, 'a new chunk about lighthouses')],
      [new Float32Array([0, 1, 0, 0])],
    );
    const hits = await reopened.fullTextSearch('lighthouses', 'app_1', 5);
    expect(hits.map((hit) => [hit.sourceId, hit.generation]).sort()).toEqual([
      ['src_new', 1],
      ['src_old', 0],
    ]);
    await reopened.close();
  });

  it('on a table other processes share, only the leading process refreshes, from what any process wrote', async () => {
    const shared = { readConsistencyInterval: 0 };
    const [writerConnection, leaderConnection] = [
      await connect(directory, shared),
      await connect(directory, shared),
    ];
    let leads = false;
    const writer = await openChunkIndex(writerConnection, embedder, {
      ...options(),
      shared: { leads: async () => false, busy: async () => false },
    });
    const leader = await openChunkIndex(leaderConnection, embedder, {
      ...options(),
      shared: { leads: async () => leads, busy: async () => false },
    });
    const table = await connection.openTable(chunkTableName(embedder.id));
    const unindexed = async () => {
      await table.checkoutLatest();
      return (await table.listIndices()).find((index) => index.columns.includes('searchText'))
        ?.numUnindexedRows;
    };
    try {
      await addAll(
        writer,
        Array.from({ length: 40 }, (_, index) => record('src_shared', index, `shared row ${index}`)),
      );
      // Nobody leads: nobody refreshes, and maintenance asked of a process that does not lead does nothing.
      await writer.maintain();
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(await unindexed()).toBe(40);
      leads = true;
      const deadline = Date.now() + 15_000;
      while ((await unindexed()) !== 0) {
        if (Date.now() > deadline) throw new Error('the leader never refreshed');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect((await writer.fullTextSearch('shared', 'app_1', 50)).length).toBe(40);
    } finally {
      table.close();
      await writer.close();
      await leader.close();
      writerConnection.close();
      leaderConnection.close();
    }
  });
});
