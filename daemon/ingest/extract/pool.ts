import { createThreadPool, type Interruption, type PooledThread } from '../thread-pool.ts';
import { ExtractionError } from './errors.ts';
import type { RecognitionProgress } from './pdf-ocr.ts';
import type { JobOutcome, WorkerJob, WorkerRequest, WorkerResponse, WorkerResult } from './worker.ts';

// Node runs the sources directly in development (type stripping) and the compiled .js after a build.
const EXTRACTION_WORKER_URL = new URL(
  import.meta.url.endsWith('.ts') ? './worker.ts' : './worker.js',
  import.meta.url,
);

/**
 * A message between threads costs tens of microseconds on each side whatever it carries, as much as chunking
 * a short text; a bulk ingestion of small texts spent a fifth of its CPU on them. Documents made on the main
 * thread are ours to trust (no parser runs on them), so waiting ones go to a worker together, up to these
 * bounds. A file's job always goes alone, so a hostile file can only fail itself.
 */
const MAX_JOBS_PER_MESSAGE = 32;
const MAX_CHARACTERS_PER_MESSAGE = 256 * 1024;

/**
 * Chunking and embedding allocate many short-lived strings and arrays, and fill caches that outlive the job;
 * V8's default nursery for a 512 MB heap promoted much of it and left the GC threads a fifth of the workers' CPU
 * during a bulk ingestion. A larger one, bounded by the heap limit, measured about a tenth less CPU in all.
 */
function youngGenerationMb(memoryMb: number): number {
  return Math.max(1, Math.min(48, Math.floor(memoryMb / 8)));
}

export interface JobOptions {
  timeoutMs: number;
  /**
   * Once a file's scanned pages are being recognised, the time that may pass between two pages instead (each
   * page has its own limit in the worker; this one is reached only by a stuck renderer). Default `timeoutMs`.
   */
  pageTimeoutMs?: number | undefined;
  maxMemoryMb: number;
  signal?: AbortSignal | undefined;
  /** News of a file's scanned pages as they are recognised. */
  onProgress?: ((progress: RecognitionProgress) => void) | undefined;
}

export interface ExtractionPool {
  /** Runs one job in a worker; the time and memory limits cover all of it. */
  run<Job extends WorkerJob>(job: Job, options: JobOptions): Promise<WorkerResult<Job>>;
  /** Terminates every worker; jobs running or waiting fail. */
  close(): Promise<void>;
}

interface PendingJob {
  job: WorkerJob;
  options: JobOptions;
  /** Sent on its own: it reads a file, or it was in a group whose worker died, which must not happen twice. */
  alone: boolean;
  settled: boolean;
  resolve(result: unknown): void;
  reject(error: unknown): void;
  onAbort(): void;
}

/** The jobs of one message, and the worker answering it. */
interface SentGroup {
  jobs: PendingJob[];
  thread: PooledThread<WorkerRequest, WorkerResponse>;
  /** The time limit running: the whole message's, or, once scanned pages are being recognised, one page's. */
  limit: 'timeoutMs' | 'pageTimeoutMs';
}

/**
 * Parsers run in worker threads (thread-pool.ts), so a hostile file can exhaust only its worker's memory and a
 * stuck parser can be terminated. Chunking and offline embedding run there too, in the parser's job, which
 * keeps that CPU work off the thread serving requests. A worker started with another memory limit is replaced
 * when a job needs a different one. `workerUrl` must answer as `worker.ts` does.
 *
 * Its own queue rather than tinypool's or piscina's: those send one task per message to workers that share one
 * heap limit, and this pool groups waiting documents into one message by the load of the other workers, runs a
 * group's jobs again alone when its worker dies, gives each job its own heap limit, and re-arms a job's time
 * limit on news of its scanned pages.
 */
export function createExtractionPool(size: number, workerUrl: URL = EXTRACTION_WORKER_URL): ExtractionPool {
  const queue: PendingJob[] = [];
  const sent = new Set<SentGroup>();
  let closed = false;
  const threads = createThreadPool<WorkerRequest, WorkerResponse>({
    url: workerUrl,
    size,
    resourceLimits: (memoryMb) => ({
      maxOldGenerationSizeMb: memoryMb,
      maxYoungGenerationSizeMb: youngGenerationMb(memoryMb),
    }),
    onFree: dispatch,
  });

  /** Sends waiting jobs to free workers, starting workers up to the pool's size. */
  function dispatch(): void {
    while (queue.length > 0 && !closed) {
      const first = queue[0]!;
      const thread = threads.free(first.options.maxMemoryMb);
      if (!thread) return;
      send(thread, takeGroup(first));
    }
  }

  /**
   * The first waiting job, with documents waiting behind it when it is one too: as many as make this worker's
   * load the pool's average, counting the jobs the other workers are running, so that a worker freed a moment
   * later is not left without work while this one has a queue of it.
   */
  function takeGroup(first: PendingJob): PendingJob[] {
    queue.shift();
    if (!groupable(first)) return [first];
    const group = [first];
    let running = 0;
    for (const other of sent) running += other.jobs.length;
    const share = Math.ceil((queue.length + 1 + running) / size);
    let characters = charactersOf(first.job);
    for (let index = 0; index < queue.length && group.length < Math.min(share, MAX_JOBS_PER_MESSAGE); ) {
      const next = queue[index]!;
      const more = charactersOf(next.job);
      if (
        !groupable(next) ||
        next.options.maxMemoryMb !== first.options.maxMemoryMb ||
        characters + more > MAX_CHARACTERS_PER_MESSAGE
      ) {
        index++;
        continue;
      }
      group.push(next);
      characters += more;
      queue.splice(index, 1);
    }
    return group;
  }

  function send(thread: PooledThread<WorkerRequest, WorkerResponse>, jobs: PendingJob[]): void {
    const group: SentGroup = { jobs, thread, limit: 'timeoutMs' };
    sent.add(group);
    const request: WorkerRequest = { jobs: jobs.map((pending) => pending.job) };
    thread.assign(
      request,
      {
        onMessage: (response) => answered(group, response),
        onInterrupt: (interruption) => interrupted(group, interruption),
      },
      limitOf(group),
    );
  }

  function limitOf(group: SentGroup): number {
    return Math.max(...group.jobs.map((pending) => jobLimit(pending.options, group.limit)));
  }

  /** Whether the response answers the group (rather than bringing news of its recognition). */
  function answered(group: SentGroup, response: WorkerResponse): boolean {
    if ('progress' in response) {
      // A file's recognition runs for as many pages as it has, each with its own limit in the worker: the job's
      // limit is what may pass between two pages, which only a stuck parser or renderer reaches.
      group.limit = 'pageTimeoutMs';
      group.thread.extend(limitOf(group));
      for (const pending of group.jobs) if (!pending.settled) pending.options.onProgress?.(response.progress);
      return false;
    }
    sent.delete(group);
    group.jobs.forEach((pending, index) => {
      settleWith(pending, response.outcomes[index]!);
    });
    return true;
  }

  /**
   * A worker crashed, ran out of memory or time, or was stopped. A job alone fails with what happened; the jobs
   * of a group go back to the front of the queue to run alone, so only the one at fault fails.
   */
  function interrupted(group: SentGroup, interruption: Interruption): void {
    sent.delete(group);
    const unanswered = group.jobs.filter((pending) => !pending.settled);
    if (group.jobs.length > 1 && !closed) {
      for (const pending of unanswered) pending.alone = true;
      queue.unshift(...unanswered);
      return;
    }
    for (const pending of unanswered) {
      settle(pending, () => pending.reject(failure(pending, interruption, group.limit)));
    }
  }

  function cancel(pending: PendingJob): void {
    if (pending.settled) return;
    const queued = queue.indexOf(pending);
    if (queued !== -1) queue.splice(queued, 1);
    settle(pending, () => pending.reject(cancelled(pending.job.fileName, pending.options.signal?.reason)));
    // A job running alone may be a parser stuck on a hostile file: stop its worker. One in a group lets the
    // others finish; its answer is dropped.
    for (const group of sent) {
      if (group.jobs.length === 1 && group.jobs[0] === pending) {
        sent.delete(group);
        group.thread.stop();
      }
    }
  }

  function settleWith(pending: PendingJob, outcome: JobOutcome): void {
    settle(pending, () => {
      if (outcome.ok) pending.resolve(outcome.result);
      else if ('internal' in outcome) pending.reject(workerBug(outcome.internal));
      else pending.reject(new ExtractionError(outcome.reason, outcome.message));
    });
  }

  function settle(pending: PendingJob, outcome: () => void): void {
    if (pending.settled) return;
    pending.settled = true;
    pending.options.signal?.removeEventListener('abort', pending.onAbort);
    outcome();
  }

  function run<Job extends WorkerJob>(job: Job, options: JobOptions): Promise<WorkerResult<Job>> {
    return new Promise((resolve, reject) => {
      if (options.signal?.aborted) {
        reject(cancelled(job.fileName, options.signal.reason));
        return;
      }
      if (closed) {
        reject(ExtractionError.cannotRead(job.fileName, 'unreadable', 'the reader was stopped'));
        return;
      }
      const pending: PendingJob = {
        job,
        options,
        alone: false,
        settled: false,
        // Messages between threads are untyped; the worker answers each job kind with that kind's result.
        resolve: resolve as (result: unknown) => void,
        reject,
        onAbort: () => cancel(pending),
      };
      options.signal?.addEventListener('abort', pending.onAbort, { once: true });
      queue.push(pending);
      dispatch();
    });
  }

  async function close(): Promise<void> {
    closed = true;
    for (const pending of queue.splice(0)) {
      settle(pending, () =>
        pending.reject(
          ExtractionError.cannotRead(pending.job.fileName, 'unreadable', 'the reader was stopped'),
        ),
      );
    }
    // Jobs running fail as their workers exit.
    await threads.close();
  }

  return { run, close };
}

function jobLimit(options: JobOptions, limit: SentGroup['limit']): number {
  return options[limit] ?? options.timeoutMs;
}

function failure(
  pending: PendingJob,
  interruption: Interruption,
  limit: SentGroup['limit'],
): ExtractionError {
  const { fileName } = pending.job;
  switch (interruption.kind) {
    case 'crash':
      return crashed(pending, interruption.error);
    case 'exit':
      return ExtractionError.cannotRead(
        fileName,
        'unreadable',
        `the reader stopped unexpectedly (exit code ${interruption.code})`,
      );
    case 'timeout':
      return ExtractionError.cannotRead(
        fileName,
        'timeout',
        limit === 'timeoutMs'
          ? `reading it took longer than ${formatSeconds(pending.options.timeoutMs)}; the file may be too large or malformed, so try splitting it`
          : `a scanned page took longer than ${formatSeconds(jobLimit(pending.options, limit))} to render and read; the file may be malformed, so try splitting it`,
      );
  }
}

function groupable(pending: PendingJob): boolean {
  return !pending.alone && pending.job.kind === 'chunk' && 'document' in pending.job.source;
}

function charactersOf(job: WorkerJob): number {
  if (job.kind !== 'chunk' || !('document' in job.source)) return 0;
  return job.source.document.pages.reduce((sum, page) => sum + page.text.length, 0);
}

function crashed(pending: PendingJob, error: Error): ExtractionError {
  const { fileName } = pending.job;
  if ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return ExtractionError.cannotRead(
      fileName,
      'out_of_memory',
      `reading it needed more than ${pending.options.maxMemoryMb} MB of memory; split the file into smaller parts`,
      error,
    );
  }
  return ExtractionError.cannotRead(fileName, 'unreadable', `the reader crashed (${error.message})`, error);
}

/** Rebuilds an error of our own code in a worker, keeping its stack for the log. */
function workerBug(stack: string): Error {
  const error = new Error(stack.split('\n')[0]);
  error.stack = stack;
  return error;
}

function cancelled(fileName: string, cause: unknown): ExtractionError {
  return new ExtractionError('aborted', `reading ${fileName} was cancelled`, { cause });
}

function formatSeconds(milliseconds: number): string {
  return milliseconds >= 1000 ? `${Math.round(milliseconds / 1000)} s` : `${milliseconds} ms`;
}
