import { type Clock, timestamp } from '../clock.ts';
import { type DaemonConfig, recognitionOptions } from '../config.ts';
import type { Embedder } from '../embed/index.ts';
import { isDiskFullError } from '../errors.ts';
import { chunkContextText } from '../ingest/chunk.ts';
import { type PreparedSource, prepareSource, type SourceInput } from '../ingest/prepare-source.ts';
import type { Readers } from '../ingest/readers.ts';
import type { Logger } from '../logger.ts';
import { SourceError } from '../source-error.ts';
import type { Store } from '../store/index.ts';
import type { ClaimedJob } from '../store/jobs.ts';
import type { Lane } from '../store/schema.ts';
import { uploadedFileId } from '../store/source-content.ts';
import { storedFilePath } from './files.ts';
import { blocksPrivateAddresses } from './private-addresses.ts';
import { createRowBudget } from './row-budget.ts';
import { completionOf, type Refresh, refreshFigures, refreshOf } from './source-refresh.ts';

/**
 * Prepared chunks wait in memory for their commit; past this many (32 MB of 1,024-dimension vectors),
 * preparing more sources waits, so a slow disk cannot let them pile up without bound.
 */
const MAX_ROWS_AWAITING_COMMIT = 8_000;
/** Web sources prepared at once, whatever `ingest_concurrency` allows: each may be a crawl of many pages. */
const MAX_WEB_SOURCES_AT_ONCE = 8;
/** Jobs leased ahead of the ones running, so a claim (a durable commit) serves many sources. */
const CLAIM_AHEAD = 1;
/** Attempts of a source that fails for a reason of ours (not the source's), and the waits between them. */
const MAX_ATTEMPTS = 3;
const RETRY_DELAYS_MS = [5_000, 30_000];
/** How often a process that shares its database looks for jobs others added (they also announce them). */
const POLL_MS = 1_000;
/** The longest a lane sleeps before looking at the queue again (a timer cannot wait past 24.8 days). */
const MAX_LOOK_MS = 3_600_000;
/** Leases are renewed this many times in a lease's time, so one late heartbeat does not lose them. */
const HEARTBEATS_PER_LEASE = 3;

/** Errors whose message is already one sentence a user can act on; anything else is our fault and logged. */
function userMessage(error: unknown): string | undefined {
  return error instanceof SourceError ? error.message : undefined;
}

interface Running {
  job: ClaimedJob;
  controller: AbortController;
  done: Promise<void>;
  /** Prepared, its chunks waiting for a commit: it holds its lease but no longer a place in the lane. */
  committing: boolean;
}

interface LaneState {
  concurrency: number;
  running: Map<string, Running>;
  /**
   * How many of `running` wait for their commit. They leave room for others: a commit takes what has finished
   * since the last, so the more sources are prepared meanwhile the fewer commits there are, and each commit costs
   * LanceDB a data file until the next index refresh. (The rows waiting are bounded by `rowsAwaitingCommit`.)
   */
  committing: number;
  /** Leased, not yet started: largest first. */
  backlog: ClaimedJob[];
  claiming: boolean;
  /** Set when a claim found nothing: the next claim waits for a wake-up, a retry's time or a poll. */
  drained: boolean;
  /** A wake-up came while a claim ran: the jobs it announced may have been committed after the claim read. */
  wokenWhileClaiming: boolean;
}

export type Ingestion = ReturnType<typeof createIngestion>;

/**
 * Runs the ingestion queue (store/jobs.ts): leases jobs, prepares their sources (extract, chunk, embed: CPU and
 * network work, in two lanes), and hands the chunks to the store, which makes them live in the transaction that
 * marks the source COMPLETED. Every step after the lease is fenced by it, so a source deleted or replaced
 * meanwhile, or a lease another process took over, changes nothing; a killed process's jobs are leased again.
 */
export function createIngestion(deps: {
  store: Store;
  embedder: Embedder;
  /** The worker pools that read files and web pages. */
  readers: Readers;
  config: DaemonConfig;
  clock: Clock;
  logger: Logger;
  filesDir: string;
  /** False in an API-only process (`ckb serve --no-ingest`): it queues jobs for other processes, runs none. */
  runsJobs?: boolean;
}) {
  const { store, embedder, readers, config, clock, logger, filesDir } = deps;
  const runsJobs = deps.runsJobs ?? true;
  const { jobs } = store;
  const leaseMs = config.limits.ingest_lease_ms;
  const lanes: Record<Lane, LaneState> = {
    local: newLane(config.limits.ingest_concurrency),
    web: newLane(Math.min(config.limits.ingest_concurrency, MAX_WEB_SOURCES_AT_ONCE)),
  };
  const rowsAwaitingCommit = createRowBudget(MAX_ROWS_AWAITING_COMMIT);
  const othersAddJobs = store.database.kind === 'postgres';
  let stopping = false;
  let fillScheduled = false;
  /** Claims that returned so far, and the one each claimed job came in (for renewLeases). */
  let claims = 0;
  const claimNumber = new WeakMap<ClaimedJob, number>();
  let nextLook: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  if (runsJobs) {
    heartbeat = setInterval(() => void renewLeases(), leaseMs / HEARTBEATS_PER_LEASE);
    heartbeat.unref();
    store.coordination.onJobs(wakeHere);
  }

  function newLane(concurrency: number): LaneState {
    return {
      concurrency,
      running: new Map(),
      committing: 0,
      backlog: [],
      claiming: false,
      drained: false,
      wokenWhileClaiming: false,
    };
  }

  /** Jobs may be ready: every lane claims again. */
  function wakeHere(): void {
    if (!runsJobs) return;
    for (const lane of Object.values(lanes)) {
      lane.drained = false;
      if (lane.claiming) lane.wokenWhileClaiming = true;
    }
    scheduleFill();
  }

  function scheduleFill(): void {
    if (stopping || fillScheduled) return;
    fillScheduled = true;
    setImmediate(() => {
      fillScheduled = false;
      for (const [name, lane] of Object.entries(lanes) as [Lane, LaneState][]) void fill(name, lane);
    });
  }

  /** Starts what the backlog holds while the lane has room, and claims more when it runs low. */
  async function fill(name: Lane, lane: LaneState): Promise<void> {
    while (!stopping && preparing(lane) < lane.concurrency && lane.backlog.length > 0)
      start(lane, lane.backlog.shift()!);
    const wanted = (1 + CLAIM_AHEAD) * lane.concurrency - preparing(lane) - lane.backlog.length;
    if (stopping || lane.claiming || lane.drained || wanted < lane.concurrency / 2) return;
    lane.claiming = true;
    lane.wokenWhileClaiming = false;
    try {
      const claimed = await jobs.claim(name, wanted, clock.now().getTime(), leaseMs, timestamp(clock));
      if (claimed.length === 0) {
        lane.drained = !lane.wokenWhileClaiming;
        if (!lane.drained) return scheduleFill();
        await lookAgainLater(name);
        return;
      }
      claims += 1;
      for (const job of claimed) claimNumber.set(job, claims);
      lane.backlog.push(...claimed.sort((left, right) => right.size - left.size));
      if (stopping) return;
    } catch (error) {
      logger.log('warn', 'claiming ingestion jobs failed', { error: String(error) });
      lane.drained = true;
      scheduleLook(POLL_MS);
      return;
    } finally {
      lane.claiming = false;
    }
    await fill(name, lane);
  }

  /** When no job is ready: look again when the next retry is due, and now and then if others add jobs. */
  async function lookAgainLater(name: Lane): Promise<void> {
    const next = await jobs.nextRunAt(name);
    const untilNext = next === undefined ? Number.POSITIVE_INFINITY : next - clock.now().getTime();
    const wait = Math.min(untilNext, othersAddJobs ? POLL_MS : Number.POSITIVE_INFINITY);
    if (Number.isFinite(wait)) scheduleLook(Math.max(0, wait));
  }

  function scheduleLook(ms: number): void {
    if (stopping) return;
    clearTimeout(nextLook);
    nextLook = setTimeout(wakeHere, Math.min(ms, MAX_LOOK_MS));
    nextLook.unref();
  }

  function preparing(lane: LaneState): number {
    return lane.running.size - lane.committing;
  }

  function start(lane: LaneState, job: ClaimedJob): void {
    const id = job.source.id;
    const controller = new AbortController();
    // A newer job of the same source means the running one was replaced: it can no longer complete.
    const replaced = lane.running.get(id);
    if (replaced) leave(lane, replaced);
    replaced?.controller.abort();
    const entry: Running = { job, controller, done: Promise.resolve(), committing: false };
    const toCommit = () => {
      entry.committing = true;
      if (lane.running.get(id) === entry) lane.committing += 1;
      scheduleFill();
    };
    entry.done = run(job, controller.signal, toCommit).finally(() => {
      if (lane.running.get(id) === entry) leave(lane, entry);
      scheduleFill();
    });
    lane.running.set(id, entry);
  }

  /** Takes an attempt out of its lane's count; `committing` counts the lane's entries waiting for a commit. */
  function leave(lane: LaneState, entry: Running): void {
    lane.running.delete(entry.job.source.id);
    if (entry.committing) lane.committing -= 1;
  }

  function inputOf(job: ClaimedJob): Promise<SourceInput> | SourceInput {
    const { source } = job;
    if (source.type === 'text') return { kind: 'text', text: source.content };
    if (source.type === 'urls') return { kind: 'urls', urls: source.content };
    if (source.type === 'website') return { kind: 'website', url: source.content };
    const fileId = uploadedFileId(source);
    if (fileId === undefined) return { kind: 'url', url: source.content };
    return store.files.find(source.account_id, fileId).then((file) => {
      if (!file)
        throw new SourceError(`file ${fileId} no longer exists; upload it again and add a new source`);
      return { kind: 'file', path: storedFilePath(filesDir, file), name: file.name, bytes: file.bytes };
    });
  }

  async function prepare(job: ClaimedJob, refresh: Refresh, signal: AbortSignal): Promise<PreparedSource> {
    const prepared = await prepareSource(await inputOf(job), {
      ...refresh.options,
      fetch: { blockPrivateAddresses: blocksPrivateAddresses(config.privateAddresses, job.source) },
      extractTimeoutMs: config.limits.extract_timeout_ms,
      crawlMaxPages: config.limits.crawl_max_pages,
      crawlMaxDepth: config.limits.crawl_max_depth,
      embedder,
      readers,
      name: job.source.name,
      recognition: recognitionOptions(config),
      onProgress: ({ done, total }) => showProgress(job, `text recognition: ${done} of ${total} pages`),
      signal,
    });
    if (prepared.chunks.length === 0 && !prepared.unchanged)
      throw new SourceError(`${job.source.name} contains no text to index`);
    return prepared;
  }

  /** A PROCESSING source's message says how far it is; a lost lease or a newer attempt makes it a no-op. */
  function showProgress(job: ClaimedJob, message: string): void {
    jobs
      .progress({ sourceId: job.source.id, generation: job.generation }, message, timestamp(clock))
      .catch((error: unknown) => logger.log('warn', 'recording progress failed', { error: String(error) }));
  }

  async function run(job: ClaimedJob, signal: AbortSignal, toCommit: () => void): Promise<void> {
    const { source, generation } = job;
    let committing = false;
    try {
      const refresh = await refreshOf(store, embedder.id, job);
      const prepared = await prepare(job, refresh, signal);
      await rowsAwaitingCommit.reserve(prepared.chunks.length);
      try {
        signal.throwIfAborted();
        committing = true;
        toCommit();
        const attempt = { generation, replaces: job.replaces, embedder: embedder.id };
        const completed = await store.chunkCommits.commit({
          completion: completionOf(source, prepared, refresh, attempt),
          records: prepared.chunks.map((chunk) => ({
            ...chunk,
            sourceId: source.id,
            applicationId: source.application_id,
            accountId: source.account_id,
            generation,
            searchText: chunkContextText(chunk),
          })),
          vectors: prepared.vectors,
          signal,
        });
        if (completed) {
          logger.log('info', 'source ingested', {
            source_id: source.id,
            generation,
            attempt: job.attempts,
            chunks: prepared.chunks.length,
          });
          if (refresh.live?.generation != null)
            logger.log('info', 'source refreshed', { source_id: source.id, ...refreshFigures(prepared) });
        }
      } finally {
        rowsAwaitingCommit.release(prepared.chunks.length);
      }
    } catch (error) {
      // Cancelled: the source was deleted, or the daemon is stopping and hands the job back.
      if (signal.aborted) return;
      await end(job, error, committing).catch((failure: unknown) =>
        logger.log('error', 'ending an ingestion attempt failed', {
          source_id: source.id,
          error: String(failure),
        }),
      );
    }
  }

  /** A source's own problem fails it at once; ours is tried again later, a few times. */
  async function end(job: ClaimedJob, error: unknown, committing: boolean): Promise<void> {
    const { source, generation } = job;
    const attempt = { sourceId: source.id, generation };
    const message = userMessage(error);
    // The chunks may be in LanceDB although their source could not be completed; they are never shown, and if
    // they cannot be deleted now (a full disk), the attempt stays unsettled for a sweep to delete them
    // (store/chunk-writes.ts).
    const leftovers = committing
      ? store.chunks.delete([
          { sourceId: source.id, generationsFrom: generation, generationsBelow: generation + 1 },
        ])
      : Promise.resolve();
    await leftovers
      .then(() => store.chunkWrites.settled([attempt]))
      .catch((failure: unknown) =>
        logger.log('warn', 'removing the chunks of a failed attempt failed', { error: String(failure) }),
      );
    if (!message && job.attempts < MAX_ATTEMPTS) {
      const delay = RETRY_DELAYS_MS[job.attempts - 1] ?? RETRY_DELAYS_MS.at(-1)!;
      logger.log('warn', 'ingestion attempt failed; it will be retried', {
        source_id: source.id,
        attempt: job.attempts,
        retry_in_ms: delay,
        error: String(error),
      });
      await jobs.retryLater(
        attempt,
        String(error),
        clock.now().getTime() + delay,
        timestamp(clock),
        `attempt ${job.attempts} failed because of an internal error (the daemon's log has it); it is tried again`,
      );
      scheduleLook(delay);
      return;
    }
    if (isDiskFullError(error)) {
      await jobs.fail(
        attempt,
        `${source.name} could not be stored because the daemon's disk is full; free some space and add it again`,
        timestamp(clock),
      );
      return;
    }
    if (!message)
      logger.log('error', 'ingestion failed', {
        source_id: source.id,
        error: String(error),
        stack: (error as Error).stack,
      });
    const reason =
      message ?? `${source.name} could not be processed because of an internal error; see the daemon log`;
    // A source replaced or synced keeps its last chunks: its users should know they are not the new ones.
    const kept = (await store.sources.liveGeneration(source.id)) !== undefined;
    await jobs.fail(
      attempt,
      kept ? `${reason}; the previous version is still in use` : reason,
      timestamp(clock),
    );
  }

  /**
   * Keeps this process's leases alive; a job it no longer holds (deleted, taken over) is stopped. Only jobs
   * claimed before the renewal began are judged by it: on PostgreSQL a claim may commit while the renewal runs,
   * which then does not see it, and dropping those jobs left them leased to this process, and renewed, for good.
   */
  async function renewLeases(): Promise<void> {
    if (stopping) return;
    const claimsBefore = claims;
    const working = Object.values(lanes).flatMap((lane) => [
      ...lane.backlog.map((job) => job.source.id),
      ...lane.running.keys(),
    ]);
    if (working.length === 0) return;
    let held: Set<string>;
    try {
      held = await jobs.renew(clock.now().getTime(), leaseMs, working);
    } catch (error) {
      logger.log('warn', 'renewing ingestion leases failed', { error: String(error) });
      return;
    }
    drop((job) => (claimNumber.get(job) ?? 0) <= claimsBefore && !held.has(job.source.id));
  }

  /** Stops running jobs and forgets leased ones that `unwanted` picks. */
  function drop(unwanted: (job: ClaimedJob) => boolean): void {
    for (const lane of Object.values(lanes)) {
      lane.backlog = lane.backlog.filter((job) => !unwanted(job));
      for (const running of lane.running.values()) if (unwanted(running.job)) running.controller.abort();
    }
  }

  function everyRunning(): Running[] {
    return Object.values(lanes).flatMap((lane) => [...lane.running.values()]);
  }

  return {
    /** Jobs were queued: this process claims them if it runs jobs, and the others are told. */
    wake(): void {
      store.coordination.announceJobs();
      wakeHere();
    },

    /** Stops ingesting these sources at once (they were deleted); their jobs went with them. */
    cancel(sourceIds: string[]): void {
      const ids = new Set(sourceIds);
      drop((job) => ids.has(job.source.id));
    },

    /** Stops the attempts of a source up to this generation: its content was replaced, and a new job queued. */
    supersede(sourceId: string, upToGeneration: number): void {
      drop((job) => job.source.id === sourceId && job.generation <= upToGeneration);
    },

    cancelApplication(applicationId: string): void {
      drop((job) => job.source.application_id === applicationId);
    },

    /** Whether chunks are on their way: index refreshes wait for the end of a burst. */
    busy(): boolean {
      return Object.values(lanes).some((lane) => lane.running.size > 0 || lane.backlog.length > 0);
    },

    /**
     * At start-up. On the embedded database this process is the only one, so leases left by a process that
     * was killed are handed back at once; on a shared one, those of an earlier process of this home (owners
     * beginning `earlierOwners`, which the home's lock proves is gone), and the others lapse by themselves.
     */
    async resume(earlierOwners: string): Promise<number> {
      const at = timestamp(clock);
      if (store.database.kind === 'sqlite') await jobs.release(at, { anyOwner: true });
      else await jobs.release(at, { ownerPrefix: earlierOwners });
      const { waiting } = await jobs.counts();
      wakeHere();
      return waiting;
    },

    /**
     * Stops taking work, aborts every job and hands the leases back; resolves once nothing runs. A job whose
     * commit is under way completes or not, as the commit goes; the others resume at the next start.
     */
    async stop(): Promise<void> {
      stopping = true;
      clearInterval(heartbeat);
      clearTimeout(nextLook);
      const running = everyRunning();
      for (const { controller } of running) controller.abort();
      await Promise.all(running.map(({ done }) => done));
      await store.chunkCommits.idle();
      await jobs.release(timestamp(clock));
    },

    /** Resolves once no job is running, leased or ready to claim. For tests and benchmarks. */
    async idle(): Promise<void> {
      for (;;) {
        const running = everyRunning();
        if (running.length > 0) {
          await Promise.all(running.map(({ done }) => done));
          continue;
        }
        const { waiting, leased } = await jobs.counts(clock.now().getTime());
        if (waiting === 0 && leased === 0 && !this.busy()) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}
