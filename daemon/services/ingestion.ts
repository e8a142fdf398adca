import PQueue from 'p-queue';
import { type Clock, timestamp } from '../clock.ts';
import type { DaemonConfig } from '../config.ts';
import { chunkContextText, chunkDocument } from '../ingest/chunk.ts';
import type { Embedder } from '../ingest/embed/index.ts';
import { type LoadedDocument, loadDocument, type SourceInput } from '../ingest/load-document.ts';
import type { Logger } from '../logger.ts';
import type { ChunkIndex, ChunkRecord } from '../store/chunk-index.ts';
import type { Store } from '../store/index.ts';
import type { SourceRecord } from '../store/records.ts';
import { storedFilePath } from './files.ts';

const EMBED_BATCH = 64;

/** A source that cannot be ingested for a reason the user can act on. */
class IngestionError extends Error {}

const USER_FACING_ERRORS = [
  'IngestionError',
  'ExtractionError',
  'FetchError',
  'EmbeddingProviderError',
  'BlockedAddressError',
];

/** Errors whose message is already one sentence a user can act on; anything else is our fault and logged. */
function userMessage(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  return USER_FACING_ERRORS.includes(error.constructor.name) ? error.message : undefined;
}

export type Ingestion = ReturnType<typeof createIngestion>;

/**
 * Runs sources from PENDING to COMPLETED or FAILED in a bounded queue. A source is written COMPLETED only
 * after all its chunks are committed, and every run starts by removing chunks an interrupted run left, so
 * a crash at any moment converges to the chunks an uninterrupted run gives.
 */
export function createIngestion(deps: {
  store: Store;
  chunkIndex: ChunkIndex;
  embedder: Embedder;
  config: DaemonConfig;
  clock: Clock;
  logger: Logger;
  filesDir: string;
}) {
  const { store, chunkIndex, embedder, config, clock, logger, filesDir } = deps;
  // Web sources wait on other servers, a slow one for the whole fetch time limit; a lane of their own keeps a
  // few slow sites from holding up every text and uploaded file behind them.
  const lanes = {
    local: new PQueue({ concurrency: config.limits.ingest_concurrency }),
    web: new PQueue({ concurrency: config.limits.ingest_concurrency }),
  };
  const running = new Map<string, AbortController>();

  function laneOf(id: string): PQueue {
    const source = store.sources.get(id);
    const local =
      source?.type === 'text' || (source?.type === 'file' && !String(source.content).startsWith('http'));
    return local ? lanes.local : lanes.web;
  }

  function current(id: string): SourceRecord | undefined {
    const source = store.sources.get(id);
    return source && !source.deleting ? source : undefined;
  }

  async function update(id: string, changes: Partial<SourceRecord>): Promise<void> {
    const source = current(id);
    if (source) await store.sources.put({ ...source, ...changes, updated_at: timestamp(clock) });
  }

  function inputOf(source: SourceRecord): SourceInput {
    const { content } = source;
    if (source.type === 'text') return { kind: 'text', text: String(content) };
    if (source.type === 'urls') return { kind: 'urls', urls: content as string[] };
    if (source.type === 'website') return { kind: 'website', url: String(content) };
    if (source.type === 'url' || String(content).startsWith('http'))
      return { kind: 'url', url: String(content) };
    const file = store.files.get(String(content));
    if (!file)
      throw new IngestionError(`file ${content} no longer exists; upload it again and add a new source`);
    return { kind: 'file', path: storedFilePath(filesDir, file), name: file.name };
  }

  async function embedAndStore(
    source: SourceRecord,
    loaded: LoadedDocument,
    signal: AbortSignal,
  ): Promise<number> {
    const chunks = chunkDocument(loaded.document);
    for (let start = 0; start < chunks.length; start += EMBED_BATCH) {
      signal.throwIfAborted();
      const batch = chunks.slice(start, start + EMBED_BATCH);
      const vectors = await embedder.embed(batch.map(chunkContextText), { kind: 'document', signal });
      const records: ChunkRecord[] = batch.map((chunk) => ({
        ...chunk,
        sourceId: source.id,
        applicationId: source.application_id,
        accountId: source.account_id,
      }));
      await chunkIndex.add(records, vectors);
      // Embedding is CPU-bound on the offline embedder: let requests in between batches.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return chunks.length;
  }

  /** `interrupted`: an earlier run may have left chunks behind, which go first. */
  async function ingest(id: string, interrupted: boolean, signal: AbortSignal): Promise<void> {
    const source = current(id);
    if (!source) return;
    // Not committed: after a restart the source is PENDING again and resumes just the same.
    store.sources.setTransient({
      ...source,
      embed_status: 'PROCESSING',
      embed_status_message: '',
      updated_at: timestamp(clock),
    });
    if (interrupted) await chunkIndex.deleteBySources([id]);
    try {
      const loaded = await loadDocument(inputOf(source), {
        fetch: { blockPrivateAddresses: config.blockPrivateAddresses },
        extractTimeoutMs: config.limits.extract_timeout_ms,
        crawlMaxPages: config.limits.crawl_max_pages,
        crawlMaxDepth: config.limits.crawl_max_depth,
        signal,
      });
      const characters = loaded.document.pages.reduce((sum, page) => sum + page.text.length, 0);
      const chunks = await embedAndStore(source, loaded, signal);
      if (chunks === 0) throw new IngestionError(`${source.name} contains no text to index`);
      signal.throwIfAborted();
      await update(id, {
        embed_status: 'COMPLETED',
        embed_status_message: loaded.warnings.length
          ? `some pages were skipped: ${loaded.warnings.join('; ')}`
          : '',
        chunks,
        pages: loaded.document.pages.length,
        characters,
        embedder: embedder.id,
      });
    } catch (error) {
      if (signal.aborted) return;
      const message = userMessage(error);
      if (!message)
        logger.log('error', 'ingestion failed', {
          source_id: id,
          error: String(error),
          stack: (error as Error).stack,
        });
      await chunkIndex.deleteBySources([id]);
      await update(id, {
        embed_status: 'FAILED',
        embed_status_message:
          message ?? `${source.name} could not be processed because of an internal error; see the daemon log`,
        chunks: 0,
      });
    }
  }

  function enqueue(id: string, interrupted = false): void {
    if (running.has(id)) return;
    const controller = new AbortController();
    running.set(id, controller);
    laneOf(id)
      .add(() => ingest(id, interrupted, controller.signal))
      .catch((error: unknown) =>
        logger.log('error', 'ingestion job crashed', { source_id: id, error: String(error) }),
      )
      .finally(() => {
        if (running.get(id) === controller) running.delete(id);
      });
  }

  return {
    enqueue,

    cancel(ids: string[]): void {
      for (const id of ids) {
        running.get(id)?.abort();
        running.delete(id);
      }
    },

    /** At start-up: resume what a stop interrupted, and re-embed sources made by another embedder. */
    async resume(): Promise<number> {
      let count = 0;
      for (const source of store.sources.values()) {
        if (source.deleting) continue;
        const interrupted = source.embed_status === 'PENDING' || source.embed_status === 'PROCESSING';
        const otherEmbedder = source.embed_status === 'COMPLETED' && source.embedder !== embedder.id;
        if (!interrupted && !otherEmbedder) continue;
        if (otherEmbedder) await update(source.id, { embed_status: 'PENDING', embed_status_message: '' });
        enqueue(source.id, interrupted);
        count += 1;
      }
      return count;
    },

    /** Stops taking work; running jobs are aborted and resume at the next start. */
    async stop(): Promise<void> {
      for (const lane of Object.values(lanes)) lane.clear();
      for (const controller of running.values()) controller.abort();
      await Promise.all(Object.values(lanes).map((lane) => lane.onIdle()));
    },

    idle: () => Promise.all(Object.values(lanes).map((lane) => lane.onIdle())).then(() => undefined),
  };
}
