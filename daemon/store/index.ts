import { join } from 'node:path';
import { type Connection, connect, Session } from '@lancedb/lancedb';
import { createApplicationStore } from './applications.ts';
import { createChunkCommits } from './chunk-commits.ts';
import { type ChunkIndex, chunkTableName, openChunkIndex, retryConflicts } from './chunk-index.ts';
import { createChunkWrites } from './chunk-writes.ts';
import { createConversationStore } from './conversations.ts';
import { type Coordination, openPostgresCoordination, soleCoordination } from './coordination.ts';
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
  /** Where LanceDB keeps the chunks (a directory or an object-store URI), and its storage options. */
  lancedb: { uri: string; storageOptions: Record<string, string> };
  /** The data directory, where an earlier layout's journal may be found to import. */
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

/** The embedder whose vectors the chunks hold: every process sharing a database must use it. */
const EMBEDDER_SETTING = 'chunk_embedder';

/**
 * LanceDB's caches of index pages and file metadata. Its defaults, 6 GB and 1 GB, are sized for a server of its
 * own, and a daemon's resident memory grew towards them; these hold the indexes of a few hundred thousand chunks
 * (a 20,000-source application's vector and full-text indexes take under 100 MB).
 */
const LANCE_INDEX_CACHE_BYTES = 256n * 1024n * 1024n;
const LANCE_METADATA_CACHE_BYTES = 64n * 1024n * 1024n;

function lanceSession(): Session {
  return new Session(LANCE_INDEX_CACHE_BYTES, LANCE_METADATA_CACHE_BYTES);
}

/** A process whose embedder is not the one the shared chunks were made by. */
export class EmbedderMismatchError extends Error {
  override name = 'EmbedderMismatchError';
}

/**
 * Opens the metadata database (migrating it, and importing an earlier layout on first start) and the chunks
 * table of the current embedder. On PostgreSQL, other processes may share both: start-up then runs one process
 * at a time, LanceDB reads see the other processes' commits, and index upkeep is left to one leader. Chunks of
 * other embedders are dropped (their sources queued to be embedded again by this one), but only by a process
 * that is alone: a process configured for another embedder than the running ones refuses to start instead.
 */
export async function openStore(options: StoreOptions) {
  const database = await openDatabase(options.database);
  const shared = options.database.kind === 'postgres';
  let coordination: Coordination | undefined;
  let connection: Connection | undefined;
  let chunkIndex: ChunkIndex | undefined;
  try {
    const migrated = await migrate(database.db, database.kind, database.description);
    coordination =
      options.database.kind === 'postgres'
        ? await openPostgresCoordination(options.database.url, options.onBackgroundError)
        : soleCoordination();
    const lance = await connect(
      options.lancedb.uri,
      {
        storageOptions: options.lancedb.storageOptions,
        // Every read looks for other processes' commits: a source another process completed is searchable at once.
        ...(shared ? { readConsistencyInterval: 0 } : {}),
      },
      lanceSession(),
    );
    connection = lance;
    const jobs = createJobStore(database, options.owner);
    const sources = createSourceStore(database);
    const settings = createSettingStore(database);
    const coordinated = coordination;
    const opened = await coordinated.startUp(async (alone) => {
      const legacy = await importLegacyLayout({
        connection: lance,
        database,
        dataDir: options.dataDir,
        now: options.now(),
      });
      const recorded = await settings.get(EMBEDDER_SETTING);
      if (!alone && recorded !== undefined && recorded !== options.embedder.id)
        throw new EmbedderMismatchError(
          `the chunks in ${database.description} were embedded by ${recorded}, which the other ckb processes ` +
            `using it run, but this one is configured for ${options.embedder.id}: every process sharing a ` +
            'database must use the same embedder. Fix "embeddings" in config.json, or, to switch every ' +
            'process to the new embedder, stop them all and start one with it first',
        );
      const droppedTables = alone
        ? await dropOtherChunkTables(lance, chunkTableName(options.embedder.id))
        : [];
      chunkIndex = await openChunkIndex(lance, options.embedder, {
        directory: options.lancedb.uri,
        busy: options.ingesting,
        onRefreshError: (error) => options.onBackgroundError('index refresh', error),
        ...(shared
          ? {
              shared: {
                leads: () => coordinated.leads(),
                busy: async () => {
                  const { waiting, leased } = await jobs.counts();
                  return waiting + leased > 0;
                },
              },
            }
          : {}),
      });
      await settings.set(EMBEDDER_SETTING, options.embedder.id);
      const requeued = await sources.requeueOtherEmbedders(options.embedder.id, options.now());
      return { legacy, droppedTables, requeued };
    });
    const chunks: ChunkIndex = chunkIndex!;
    const writes = createChunkWrites(database, chunks);
    return {
      database,
      coordination: coordinated,
      keys: createKeyStore(database),
      applications: createApplicationStore(database),
      sources,
      files: createFileStore(database),
      conversations: createConversationStore(database),
      jobs,
      settings,
      chunks,
      chunkWrites: writes,
      chunkCommits: createChunkCommits({ chunkIndex: chunks, jobs, writes, now: options.now }),
      purges: createChunkPurges(database, chunks, writes, (error) =>
        options.onBackgroundError('chunk purge', error),
      ),
      /** What opening did, for the start-up log line. */
      opened: {
        migrated,
        legacy: opened.legacy satisfies LegacyImport | undefined,
        droppedTables: opened.droppedTables,
        requeued: opened.requeued,
      },
      async close() {
        await chunks.close();
        lance.close();
        await coordinated.close();
        await database.close();
      },
    };
  } catch (error) {
    await chunkIndex?.close();
    connection?.close();
    await coordination?.close();
    await database.close();
    throw error;
  }
}

/** Chunks of embedders other than the current one are never read again. */
async function dropOtherChunkTables(connection: Connection, current: string): Promise<string[]> {
  const dropped: string[] = [];
  for (const name of await connection.tableNames()) {
    if (!name.startsWith('chunks_') || name === current) continue;
    await retryConflicts(() => connection.dropTable(name));
    dropped.push(name);
  }
  return dropped;
}

export function sqlitePath(dataDir: string): string {
  return join(dataDir, 'ckb.sqlite');
}

export type { Database };
