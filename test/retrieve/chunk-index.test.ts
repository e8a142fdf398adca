import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Connection, connect } from '@lancedb/lancedb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHashedEmbedder } from '../../daemon/ingest/embed/hashed.ts';
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
    index,
    page: 1,
    text,
    headings: [],
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

  beforeEach(async () => {
    directory = mkdtempSync(join(tmpdir(), 'ckb-chunks-'));
    connection = await connect(directory);
    chunkIndex = await openChunkIndex(connection, embedder);
  });

  afterEach(async () => {
    await chunkIndex.close();
    connection.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('keeps one table per embedder', async () => {
    expect(await connection.tableNames()).toEqual([chunkTableName(embedder.id)]);
    const other = await openChunkIndex(connection, createHashedEmbedder({ dimensions: 64 }));
    expect((await connection.tableNames()).sort()).toEqual(
      [chunkTableName(embedder.id), chunkTableName('offline-hash-64-v1')].sort(),
    );
    await other.close();
  });

  it('finds rows by full text and by vector as soon as add resolves, before and after maintenance', async () => {
    await addAll(chunkIndex, [
      record('src_a', 0, 'Photosynthesis turns light into chemical energy.', { headings: ['Biology'] }),
      record('src_a', 1, 'The mitochondria is the powerhouse of the cell.'),
    ]);
    const sources = { sourceIds: ['src_a', 'src_b'] };
    expect((await chunkIndex.fullTextSearch('photosynthesis', sources, 5))[0]).toMatchObject({
      sourceId: 'src_a',
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
    const [textHit] = await chunkIndex.fullTextSearch('glaciers valleys', sources, 5);
    expect(textHit).toMatchObject({ sourceId: 'src_b', page: 3, url: 'https://example.com/ice' });
    expect(textHit!.score).toBeGreaterThan(0);
    const [vector] = await embedder.embed(['glacier carving valleys']);
    const vectorHits = await chunkIndex.vectorSearch(vector!, sources, 5);
    expect(vectorHits[0]).toMatchObject({ sourceId: 'src_b', chunkIndex: 0 });
    expect(vectorHits[0]!.score).toBeGreaterThan(vectorHits[1]!.score);
    expect((await chunkIndex.fullTextSearch('heading Biology', sources, 5))[0]?.chunkIndex).toBe(0);
  });

  it('searches only the sources in the filter', async () => {
    await addAll(chunkIndex, [
      record('src_a', 0, 'alpha topic text'),
      record("src_'b", 0, 'alpha topic text too'),
    ]);
    const hits = await chunkIndex.fullTextSearch('alpha', { sourceIds: ["src_'b"] }, 5);
    expect(hits.map((hit) => hit.sourceId)).toEqual(["src_'b"]);
    const [vector] = await embedder.embed(['alpha topic']);
    expect(
      (await chunkIndex.vectorSearch(vector!, { sourceIds: ['src_a'] }, 5)).map((hit) => hit.sourceId),
    ).toEqual(['src_a']);
    expect(await chunkIndex.fullTextSearch('alpha', { sourceIds: [] }, 5)).toEqual([]);
  });

  it('lists and counts by source in order, and forgets deleted sources at once', async () => {
    await addAll(chunkIndex, [
      record('src_a', 1, 'second chunk of a'),
      record('src_a', 0, 'first chunk of a', { headings: ['Intro'] }),
      record('src_b', 0, 'only chunk of b'),
    ]);
    expect(await chunkIndex.listBySource('src_a')).toEqual([
      { index: 0, page: 1, text: 'first chunk of a', headings: ['Intro'] },
      { index: 1, page: 1, text: 'second chunk of a', headings: [] },
    ]);
    expect(await chunkIndex.countBySource('src_a')).toBe(2);
    await chunkIndex.deleteBySources(['src_a']);
    expect(await chunkIndex.countBySource('src_a')).toBe(0);
    expect(await chunkIndex.fullTextSearch('chunk', { sourceIds: ['src_a', 'src_b'] }, 5)).toHaveLength(1);
    const [vector] = await embedder.embed(['first chunk of a']);
    const hits = await chunkIndex.vectorSearch(vector!, { sourceIds: ['src_a', 'src_b'] }, 5);
    expect(hits.map((hit) => hit.sourceId)).toEqual(['src_b']);
  });

  it('rejects vectors that do not match the records or the embedder', async () => {
    await expect(chunkIndex.add([record('src_a', 0, 'x')], [])).rejects.toThrow(/1 chunks but 0 vectors/);
    await expect(chunkIndex.add([record('src_a', 0, 'x')], [new Float32Array(3)])).rejects.toThrow(
      /3 dimensions/,
    );
  });

  it('reopens an existing table with its rows', async () => {
    await addAll(chunkIndex, [record('src_a', 0, 'persisted text')]);
    const reopened = await openChunkIndex(connection, embedder);
    expect(await reopened.countBySource('src_a')).toBe(1);
    await reopened.close();
  });
});
