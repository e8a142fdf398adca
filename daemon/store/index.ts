import { join } from 'node:path';
import { type Connection, connect } from '@lancedb/lancedb';
import { createApplicationStore } from './applications.ts';
import { createChunkCommits } from './chunk-commits.ts';
import { type ChunkIndex, chunkTableName, openChunkIndex } from './chunk-index.ts';
import { createConversationStore } from './conversations.ts';
import { type Database, type DatabaseLocation, openDatabase } from './database.ts';
import { createFileStore } from './files.ts';
import { createJobStore } from './jobs.ts';
import { createKeyStore } from './keys.ts';
import { importLegacyLayout, type LegacyImport } from './legacy-import.ts';
import { migrate } from './migrations.ts';
import { createChunkPurges } from './purges.ts';
import { createSettingStore } from './settings.ts';
import { createSourceStore } from './sources.ts';

export interface StoreOptions {
  database: DatabaseLocation;
  /** Where LanceDB keeps the chunks. */
  chunksDir: string;
  /** The data directory, where an earlier layout's tables and journal may be found to import. */
  dataDir: string;
  embedder: { id: string; dimensions: number };
  /** This process, as the owner of the ingestion leases it takes. */
  owner: string;
  /** Whether ingestion has chunks on their way, so index refreshes wait for the end of a burst. */
  ingesting: () => boolean;
  onBackgroundError: (what: string, error: unknown) => void;
  now: () => string;
}

export type Store = Awaited<ReturnType<typeof openStore>>;

/**
 * Opens the metadata database (migrating it, and importing an earlier layout on first start) and the chunks
 * table of the current embedder. Chunks of other embedders are dropped: their sources are queued to be embedded
 * again by this one.
 */
export async function openStore(options: StoreOptions) {
  const database = await openDatabase(options.database);
  let connection: Connection | undefined;
  let chunkIndex: ChunkIndex | undefined;
  try {
    const migrated = await migrate(database.db, database.kind, database.description);
    connection = await connect(options.chunksDir);
    const legacy = await importLegacyLayout({
      connection,
      database,
      dataDir: options.dataDir,
      now: options.now(),
    });
    const droppedTables = await dropOtherChunkTables(connection, chunkTableName(options.embedder.id));
    chunkIndex = await openChunkIndex(connection, options.embedder, {
      directory: options.chunksDir,
      busy: options.ingesting,
      onRefreshError: (error) => options.onBackgroundError('index refresh', error),
    });
    const jobs = createJobStore(database, options.owner);
    const chunks: ChunkIndex = chunkIndex;
    const lance: Connection = connection;
    const sources = createSourceStore(database);
    const requeued = await sources.requeueOtherEmbedders(options.embedder.id, options.now());
    return {
      database,
      keys: createKeyStore(database),
      applications: createApplicationStore(database),
      sources,
      files: createFileStore(database),
      conversations: createConversationStore(database),
      jobs,
      settings: createSettingStore(database),
      chunks,
      chunkCommits: createChunkCommits({ chunkIndex: chunks, jobs, now: options.now }),
      purges: createChunkPurges(database, chunks, (error) => options.onBackgroundError('chunk purge', error)),
      /** What opening did, for the start-up log line. */
      opened: { migrated, legacy: legacy satisfies LegacyImport | undefined, droppedTables, requeued },
      async close() {
        await chunks.close();
        lance.close();
        await database.close();
      },
    };
  } catch (error) {
    await chunkIndex?.close();
    connection?.close();
    await database.close();
    throw error;
  }
}

/** Chunks of embedders other than the current one are never read again. */
async function dropOtherChunkTables(connection: Connection, current: string): Promise<string[]> {
  const dropped: string[] = [];
  for (const name of await connection.tableNames()) {
    if (!name.startsWith('chunks_') || name === current) continue;
    await connection.dropTable(name);
    dropped.push(name);
  }
  return dropped;
}

export function sqlitePath(dataDir: string): string {
  return join(dataDir, 'ckb.sqlite');
}

export type { Database };
