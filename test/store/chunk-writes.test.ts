import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Connection, connect } from '@lancedb/lancedb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHashedEmbedder } from '../../daemon/embed/hashed.ts';
import { type ChunkIndex, openChunkIndex } from '../../daemon/store/chunk-index.ts';
import { createChunkWrites } from '../../daemon/store/chunk-writes.ts';
import { type Database, openDatabase } from '../../daemon/store/database.ts';
import { createJobStore } from '../../daemon/store/jobs.ts';
import { migrate } from '../../daemon/store/migrations.ts';
import { createSourceStore } from '../../daemon/store/sources.ts';
import { newDatabaseLocation } from '../support/home.ts';
import { addAccountAndApplication } from '../support/store-rows.ts';

const AT = '2026-11-24T00:00:00.000Z';
const LEASE_MS = 30_000;
const embedder = createHashedEmbedder();

describe('what ingestion attempts leave in LanceDB', () => {
  let database: Database;
  let directory: string;
  let connection: Connection;
  let chunks: ChunkIndex;

  beforeEach(async () => {
    database = await openDatabase(await newDatabaseLocation());
    await migrate(database.db, database.kind, database.description);
    await addAccountAndApplication(database, AT);
    directory = mkdtempSync(join(tmpdir(), 'ckb-writes-'));
    connection = await connect(directory);
    chunks = await openChunkIndex(connection, embedder, {
      directory,
      busy: () => false,
      onRefreshError: () => {},
    });
  });

  afterEach(async () => {
    await chunks.close();
    connection.close();
    await database.close();
    rmSync(directory, { recursive: true, force: true });
  });

  async function addSource(name: string): Promise<string> {
    const id = `src_${name}`;
    await createSourceStore(database).insert(
      'acct_1',
      [
        {
          record: {
            id,
            account_id: 'acct_1',
            application_id: 'app_1',
            name,
            type: 'text',
            content: name,
            embed_status: 'PENDING',
            embed_status_message: '',
            chunks: 0,
            pages: 0,
            characters: 0,
            embedder: null,
            allow_private_addresses: false,
            content_hash: null,
            sync_interval: null,
            attempts: 0,
            last_error: '',
            created_at: AT,
            updated_at: AT,
          },
          lane: 'local',
          size: 1,
        },
      ],
      () => 'application_id',
    );
    return id;
  }

  /** Writes `count` chunks of a source under a generation, as an attempt does before it completes. */
  async function write(sourceId: string, generation: number, count = 2): Promise<void> {
    const records = Array.from({ length: count }, (_, index) => ({
      sourceId,
      applicationId: 'app_1',
      accountId: 'acct_1',
      generation,
      index,
      page: 1,
      text: `${sourceId} chunk ${index}`,
      headings: [],
      searchText: `${sourceId} chunk ${index}`,
    }));
    await chunks.add(records, await embedder.embed(records.map((record) => record.text)));
  }

  async function generations(sourceId: string): Promise<number[]> {
    const found = await Promise.all(
      [1, 2, 3].map(async (generation) =>
        (await chunks.list(sourceId, generation)).length ? generation : 0,
      ),
    );
    return found.filter(Boolean);
  }

  const completion = (sourceId: string, generation: number) => ({
    sourceId,
    generation,
    replaces: generation > 1,
    chunks: 2,
    pages: 1,
    characters: 10,
    embedder: embedder.id,
    message: '',
  });

  it('a sweep removes what an attempt that lost its job wrote, and keeps what a running one writes', async () => {
    const id = await addSource('taken-over');
    const killed = createJobStore(database, 'worker-a');
    const survivor = createJobStore(database, 'worker-b');
    const writes = createChunkWrites(database, chunks);
    const [first] = await killed.claim('local', 1, 0, LEASE_MS, AT);
    // Worker A writes its chunks, then dies before completing.
    await write(id, first!.generation);
    await writes.sweep();
    expect(await generations(id)).toEqual([1]);
    // Its lease lapses, and B takes the job over: A's attempt can never complete, so its chunks go.
    const [second] = await survivor.claim('local', 1, LEASE_MS + 1, LEASE_MS, AT);
    await write(id, second!.generation);
    await writes.sweep();
    expect(await generations(id)).toEqual([2]);
    expect(await survivor.complete([completion(id, second!.generation)], AT)).toEqual(new Set([id]));
    await writes.sweep();
    expect(await generations(id)).toEqual([2]);
    expect(await database.db.selectFrom('chunk_writes').selectAll().execute()).toEqual([]);
  });

  it('a sweep finishes a replacement whose process died before deleting the old version', async () => {
    const id = await addSource('replaced');
    const jobs = createJobStore(database, 'worker-a');
    const writes = createChunkWrites(database, chunks);
    const [first] = await jobs.claim('local', 1, 0, LEASE_MS, AT);
    await write(id, first!.generation);
    await jobs.complete([completion(id, first!.generation)], AT);
    // The source is ingested again (a retry after an embedder switch, a replacement): generation 2 goes live,
    // and the process dies before deleting generation 1.
    await database.db
      .insertInto('jobs')
      .values({
        id: 'job_again',
        source_id: id,
        lane: 'local',
        size: 1,
        attempts: 0,
        lease_owner: null,
        lease_expires_at: null,
        generation: null,
        run_after: 0,
        last_error: '',
        created_at: AT,
      })
      .execute();
    const [second] = await jobs.claim('local', 1, 0, LEASE_MS, AT);
    expect(second!.replaces).toBe(true);
    await write(id, second!.generation);
    await jobs.complete([completion(id, second!.generation)], AT);
    expect(await generations(id)).toEqual([1, 2]);
    await writes.sweep();
    expect(await generations(id)).toEqual([2]);
    expect(await database.db.selectFrom('chunk_writes').selectAll().execute()).toEqual([]);
  });

  it('a sweep removes what an attempt of a deleted source wrote after the purge', async () => {
    const id = await addSource('deleted');
    const jobs = createJobStore(database, 'worker-a');
    const writes = createChunkWrites(database, chunks);
    const [claimed] = await jobs.claim('local', 1, 0, LEASE_MS, AT);
    await createSourceStore(database).delete('acct_1', [id], AT);
    await write(id, claimed!.generation);
    await writes.sweep();
    expect(await generations(id)).toEqual([]);
  });
});
