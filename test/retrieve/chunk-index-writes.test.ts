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

const embedder = createHashedEmbedder({ dimensions: 64 });

function records(sourceId: string, count: number): ChunkRecord[] {
  return Array.from({ length: count }, (_, index) => ({
    sourceId,
    applicationId: 'app_1',
    accountId: 'acct_1',
    index,
    page: 1 + index,
    text: `Passage ${index} of ${sourceId} about rockets number ${index}.`,
    headings: index % 2 ? ['Guide', `Part ${index}`] : [],
    ...(index % 3 === 0 ? { url: `https://example.com/${sourceId}/${index}` } : {}),
  }));
}

async function add(chunkIndex: ChunkIndex, batch: ChunkRecord[]): Promise<void> {
  await chunkIndex.add(batch, await embedder.embed(batch.map((item) => item.text)));
}

describe('chunk index writes', () => {
  let directory: string;
  let connection: Connection;
  let chunkIndex: ChunkIndex;

  beforeEach(async () => {
    directory = mkdtempSync(join(tmpdir(), 'ckb-chunk-writes-'));
    connection = await connect(directory);
    chunkIndex = await openChunkIndex(connection, embedder);
  });

  afterEach(async () => {
    await chunkIndex.close();
    connection.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('groups concurrent adds into fewer commits, every row intact', async () => {
    const table = await connection.openTable(chunkTableName(embedder.id));
    const versionBefore = await table.version();
    const sources = Array.from({ length: 20 }, (_, index) => records(`src_${index}`, 3));
    const vectors = await Promise.all(sources.map((batch) => embedder.embed(batch.map((item) => item.text))));
    await Promise.all(sources.map((batch, position) => chunkIndex.add(batch, vectors[position]!)));
    await table.checkoutLatest();
    expect((await table.version()) - versionBefore).toBeLessThan(sources.length);
    table.close();
    for (const batch of sources) {
      const stored = await chunkIndex.listBySource(batch[0]!.sourceId);
      expect(stored).toEqual(
        batch.map(
          ({ sourceId: _source, applicationId: _application, accountId: _account, ...chunk }) => chunk,
        ),
      );
    }
  });

  it('indexes source ids, which every search filters on, and keeps them indexed after compaction', async () => {
    const table = await connection.openTable(chunkTableName(embedder.id));
    const indexedColumns = async () => (await table.listIndices()).flatMap((index) => index.columns);
    expect(await indexedColumns()).toContain('sourceId');
    await add(chunkIndex, records('src_m', 3));
    await chunkIndex.maintain();
    expect(await indexedColumns()).toContain('sourceId');
    expect(await chunkIndex.countBySource('src_m')).toBe(3);
    table.close();
  });

  it('keeps a delete queued between adds in its place', async () => {
    await add(chunkIndex, records('src_a', 2));
    await add(chunkIndex, records('src_b', 1));
    const [vector] = await embedder.embed(['again']);
    await Promise.all([
      chunkIndex.add(records('src_a', 1), [vector!]),
      chunkIndex.deleteBySources(['src_a']),
      chunkIndex.add(records('src_c', 1), [vector!]),
    ]);
    expect(await chunkIndex.countBySource('src_a')).toBe(0);
    expect(await chunkIndex.countBySource('src_b')).toBe(1);
    expect(await chunkIndex.countBySource('src_c')).toBe(1);
  });

  it('finds rows from grouped adds by full text and by vector', async () => {
    await Promise.all([add(chunkIndex, records('src_x', 4)), add(chunkIndex, records('src_y', 4))]);
    const filter = { sourceIds: ['src_x', 'src_y'] };
    const textHits = await chunkIndex.fullTextSearch('rockets', filter, 10);
    expect(textHits).toHaveLength(8);
    const [vector] = await embedder.embed(['Passage 2 of src_y about rockets number 2.']);
    const [best] = await chunkIndex.vectorSearch(vector!, filter, 1);
    expect(best).toMatchObject({ sourceId: 'src_y', chunkIndex: 2 });
    expect(best!.score).toBeCloseTo(1, 4);
  });

  it('refreshes the full-text index past 5,000 new rows or half the indexed ones, and on request when due', async () => {
    const table = await connection.openTable(chunkTableName(embedder.id));
    const unindexed = async () => {
      // Writes run in order, so a write queued now runs after any refresh the last add started.
      await chunkIndex.deleteBySources(['src_none']);
      await table.checkoutLatest();
      return (await table.indexStats('searchText_idx'))?.numUnindexedRows;
    };
    await add(chunkIndex, records('src_small', 100));
    expect(await unindexed()).toBe(100);
    await chunkIndex.refresh();
    expect(await unindexed()).toBe(0);

    await add(chunkIndex, records('src_first', 12_000));
    expect(await unindexed()).toBe(0);
    // 12,100 rows indexed: past 5,000 new rows the next refresh waits for half of them, 6,050.
    await add(chunkIndex, records('src_second', 5_500));
    expect(await unindexed()).toBe(5_500);
    const thirdStarted = performance.now();
    await add(chunkIndex, records('src_third', 600));
    expect(await unindexed()).toBe(0);
    const thirdMs = performance.now() - thirdStarted;

    // Right after a refresh of 18,200 rows, one asked for waits four times what that one took...
    await add(chunkIndex, records('src_fourth', 100));
    void chunkIndex.refresh();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await unindexed()).toBe(100);
    // ...unless the rows waiting reach a tenth of those indexed.
    await add(chunkIndex, records('src_fifth', 1_800));
    const started = performance.now();
    await chunkIndex.refresh();
    const refreshMs = performance.now() - started;
    expect(await unindexed()).toBe(0);
    // The first request lapsed when rows came after it: it does not refresh again once its wait is over.
    await add(chunkIndex, records('src_sixth', 10));
    await new Promise((resolve) => setTimeout(resolve, 4 * Math.max(thirdMs, refreshMs) + 300));
    expect(await unindexed()).toBe(10);
    table.close();
  });
});
