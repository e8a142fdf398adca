import PQueue from 'p-queue';
import { type Clock, timestamp } from '../clock.ts';
import { type DaemonConfig, recognitionOptions } from '../config.ts';
import type { Embedder } from '../ingest/embed/index.ts';
import { type PreparedSource, prepareSource, type SourceInput } from '../ingest/prepare-source.ts';
import type { Logger } from '../logger.ts';
import type { ChunkIndex, ChunkRecord } from '../store/chunk-index.ts';
import type { Store } from '../store/index.ts';
import type { SourceRecord } from '../store/records.ts';
import { storedFilePath } from './files.ts';
import { createCommitGroups, createRowBudget } from './staged-chunks.ts';

/**
 * Prepared chunks wait in memory for their commit; past this many (128 MB of 1,024-dimension vectors),
 * preparing more sources waits, so a slow disk cannot let them pile up without bound.
 */
const MAX_ROWS_AWAITING_COMMIT = 32_000;

/** Web sources prepared at once, whatever `ingest_concurrency` allows: each may be a crawl of many pages. */
const MAX_WEB_SOURCES_AT_ONCE = 8;

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

/** A source whose chunks are ready to store, as the source record read when it was prepared. */
interface Staged {
  source: SourceRecord;
  prepared: PreparedSource;
}

/**
 * Runs sources from PENDING to COMPLETED or FAILED in two stages. The first, in a bounded lane, does the CPU
 * and network work; the second, outside the lanes, waits for the chunks' commit, so one commit takes the chunks
 * of every source prepared meanwhile. A source is written COMPLETED only after all its chunks are committed,
 * and `resume` removes the chunks of interrupted runs before they run again, so a crash at any moment
 * converges to the chunks an uninterrupted run gives.
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
  // few slow sites from holding up every text and uploaded file behind them. A crawl holds its pages in memory
  // until they are chunked, so fewer of them run at once.
  const lanes = {
    local: new PQueue({ concurrency: config.limits.ingest_concurrency }),
    web: new PQueue({ concurrency: Math.min(config.limits.ingest_concurrency, MAX_WEB_SOURCES_AT_ONCE) }),
  };
  const rowsAwaitingCommit = createRowBudget(MAX_ROWS_AWAITING_COMMIT);
  const commitGroups = createCommitGroups(
    chunkIndex,
    () => lanes.local.size + lanes.local.pending + lanes.web.size + lanes.web.pending > 0,
    logger,
  );
  const running = new Map<string, AbortController>();
  /** Every job from enqueue to its last write, including those `cancel` already aborted. */
  const jobs = new Set<Promise<void>>();
  let stopping = false;

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
    if (source) await store.sources.patch([id], { ...changes, updated_at: timestamp(clock) });
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
    return { kind: 'file', path: storedFilePath(filesDir, file), name: file.name, bytes: file.bytes };
  }

  /** Stage one, in a lane: ends once the chunks and vectors are ready and there is room for them to wait. */
  async function prepare(id: string, signal: AbortSignal): Promise<Staged | undefined> {
    signal.throwIfAborted();
    const source = current(id);
    if (!source) return undefined;
    // Not committed: after a restart the source is PENDING again and resumes just the same.
    store.sources.setTransient({
      ...source,
      embed_status: 'PROCESSING',
      embed_status_message: '',
      updated_at: timestamp(clock),
    });
    const prepared = await prepareSource(inputOf(source), {
      fetch: { blockPrivateAddresses: config.blockPrivateAddresses },
      extractTimeoutMs: config.limits.extract_timeout_ms,
      crawlMaxPages: config.limits.crawl_max_pages,
      crawlMaxDepth: config.limits.crawl_max_depth,
      embedder,
      name: source.name,
      recognition: recognitionOptions(config),
      onProgress: ({ done, total }) => showProgress(id, `text recognition: ${done} of ${total} pages`),
      signal,
    });
    if (prepared.chunks.length === 0) throw new IngestionError(`${source.name} contains no text to index`);
    await rowsAwaitingCommit.reserve(prepared.chunks.length);
    return { source, prepared };
  }

  /** A PROCESSING source's message says how far it is; in memory only, like the status itself. */
  function showProgress(id: string, message: string): void {
    const source = current(id);
    if (source?.embed_status !== 'PROCESSING') return;
    store.sources.setTransient({ ...source, embed_status_message: message, updated_at: timestamp(clock) });
  }

  /**
   * Stage two, outside the lanes. A source cancelled before its chunks are queued (while it waited for room or
   * for its group) must not add them: the delete that cancelled it is already queued and would miss them.
   */
  async function commit({ source, prepared }: Staged, signal: AbortSignal): Promise<void> {
    try {
      signal.throwIfAborted();
      const records: ChunkRecord[] = prepared.chunks.map((chunk) => ({
        ...chunk,
        sourceId: source.id,
        applicationId: source.application_id,
        accountId: source.account_id,
      }));
      await commitGroups.commit(records, prepared.vectors, signal);
    } finally {
      rowsAwaitingCommit.release(prepared.chunks.length);
    }
  }

  async function ingest(id: string, signal: AbortSignal): Promise<void> {
    const source = current(id);
    if (!source) return;
    try {
      const staged = await laneOf(id)
        .add(() => prepare(id, signal))
        .catch((error: unknown) => {
          commitGroups.preparationEnded();
          throw error;
        });
      if (!staged) {
        commitGroups.preparationEnded();
        return;
      }
      await commit(staged, signal);
      signal.throwIfAborted();
      const { prepared } = staged;
      await update(id, {
        embed_status: 'COMPLETED',
        embed_status_message: prepared.warnings.length
          ? `some pages were skipped: ${prepared.warnings.join('; ')}`
          : '',
        chunks: prepared.chunks.length,
        pages: prepared.pages,
        characters: prepared.characters,
        embedder: embedder.id,
      });
    } catch (error) {
      if (signal.aborted) return;
      await fail(source, error);
    }
  }

  async function fail(source: SourceRecord, error: unknown): Promise<void> {
    const message = userMessage(error);
    if (!message)
      logger.log('error', 'ingestion failed', {
        source_id: source.id,
        error: String(error),
        stack: (error as Error).stack,
      });
    await chunkIndex.deleteBySources([source.id]);
    await update(source.id, {
      embed_status: 'FAILED',
      embed_status_message:
        message ?? `${source.name} could not be processed because of an internal error; see the daemon log`,
      chunks: 0,
    });
  }

  function enqueue(id: string): void {
    if (stopping || running.has(id)) return;
    const controller = new AbortController();
    running.set(id, controller);
    const job: Promise<void> = ingest(id, controller.signal)
      .catch((error: unknown) =>
        logger.log('error', 'ingestion job crashed', { source_id: id, error: String(error) }),
      )
      .finally(() => {
        if (running.get(id) === controller) running.delete(id);
        jobs.delete(job);
      });
    jobs.add(job);
  }

  /**
   * Queues sources added together, the largest first. A batch ends when its slowest source does: a big file
   * queued behind small ones ran alone at the end while the other worker idled (in the corpus benchmark, a
   * 900 ms PDF started after a second of small files). Sizes are what is known before reading: a text's
   * length, a stored file's bytes; web sources, of unknown size, keep their order after them.
   */
  function enqueueAll(ids: readonly string[]): void {
    const sized = ids.map((id) => ({ id, size: expectedSize(id) }));
    sized.sort((left, right) => right.size - left.size);
    for (const { id } of sized) enqueue(id);
  }

  function expectedSize(id: string): number {
    const source = store.sources.get(id);
    if (source?.type === 'text') return String(source.content).length;
    if (source?.type === 'file') return store.files.get(String(source.content))?.bytes ?? 0;
    return 0;
  }

  /** Resolves once no job is left, including jobs enqueued while waiting. */
  async function idle(): Promise<void> {
    while (jobs.size > 0) await Promise.all(jobs);
  }

  return {
    enqueueAll,

    cancel(ids: string[]): void {
      for (const id of ids) {
        running.get(id)?.abort();
        running.delete(id);
      }
    },

    /** At start-up: resume what a stop interrupted, and re-embed sources made by another embedder. */
    async resume(): Promise<number> {
      const interrupted: string[] = [];
      const reembed: string[] = [];
      for (const source of store.sources.values()) {
        if (source.deleting) continue;
        if (source.embed_status === 'PENDING' || source.embed_status === 'PROCESSING')
          interrupted.push(source.id);
        else if (source.embed_status === 'COMPLETED' && source.embedder !== embedder.id)
          reembed.push(source.id);
      }
      // Interrupted runs may have left chunks behind; one commit removes them all before any run starts again.
      await chunkIndex.deleteBySources(interrupted);
      for (const id of reembed) await update(id, { embed_status: 'PENDING', embed_status_message: '' });
      for (const id of [...interrupted, ...reembed]) enqueue(id);
      return interrupted.length + reembed.length;
    },

    /**
     * Stops taking work and aborts every job; resolves once none is left. A job whose commit is under way
     * waits for it but is not written COMPLETED: it resumes at the next start.
     */
    async stop(): Promise<void> {
      stopping = true;
      for (const controller of running.values()) controller.abort();
      commitGroups.stop();
      await idle();
    },

    idle,
  };
}
