import { Worker } from 'node:worker_threads';
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

export interface WorkerPool {
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

interface PooledWorker {
  worker: Worker;
  memoryMb: number;
  /** The jobs of the message the worker is answering; none while it is idle. */
  running: PendingJob[] | undefined;
  timer?: NodeJS.Timeout | undefined;
}

/**
 * Parsers run in worker threads with a heap limit, so a hostile file can exhaust only its worker's memory and
 * a stuck parser can be terminated. Chunking and offline embedding run there too, in the parser's job, which
 * keeps that CPU work off the thread serving requests. Workers are kept for reuse; one started with another
 * memory limit is replaced when a job needs a different one. `workerUrl` must answer as `worker.ts` does.
 */
export function createWorkerPool(size: number, workerUrl: URL = EXTRACTION_WORKER_URL): WorkerPool {
  const workers: PooledWorker[] = [];
  const queue: PendingJob[] = [];
  let closed = false;

  function spawn(memoryMb: number): PooledWorker {
    const pooled: PooledWorker = {
      worker: new Worker(workerUrl, {
        resourceLimits: {
          maxOldGenerationSizeMb: memoryMb,
          maxYoungGenerationSizeMb: youngGenerationMb(memoryMb),
        },
      }),
      memoryMb,
      running: undefined,
    };
    pooled.worker.on('message', (response: WorkerResponse) => answered(pooled, response));
    // A worker that dies, idle or not, must not take the daemon with it (an unhandled 'error' would).
    pooled.worker.on('error', (error: Error) => died(pooled, (job) => crashed(job, error)));
    pooled.worker.on('exit', (code: number) =>
      died(pooled, (job) =>
        ExtractionError.cannotRead(
          job.job.fileName,
          'unreadable',
          `the reader stopped unexpectedly (exit code ${code})`,
        ),
      ),
    );
    workers.push(pooled);
    return pooled;
  }

  function retire(pooled: PooledWorker): void {
    const index = workers.indexOf(pooled);
    if (index === -1) return;
    workers.splice(index, 1);
    clearTimeout(pooled.timer);
    pooled.running = undefined;
    void pooled.worker.terminate();
  }

  /** Sends waiting jobs to idle workers, starting workers up to the pool's size. */
  function dispatch(): void {
    while (queue.length > 0 && !closed) {
      const first = queue[0]!;
      const pooled = workerFor(first.options.maxMemoryMb);
      if (!pooled) return;
      send(pooled, takeGroup(first));
    }
  }

  function workerFor(memoryMb: number): PooledWorker | undefined {
    const idle = workers.find((pooled) => !pooled.running && pooled.memoryMb === memoryMb);
    if (idle) return idle;
    if (workers.length >= size) {
      const other = workers.find((pooled) => !pooled.running);
      if (!other) return undefined;
      retire(other);
    }
    return spawn(memoryMb);
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
    const running = workers.reduce((sum, pooled) => sum + (pooled.running?.length ?? 0), 0);
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

  function send(pooled: PooledWorker, group: PendingJob[]): void {
    pooled.running = group;
    pooled.worker.ref();
    arm(pooled, group, 'timeoutMs');
    const request: WorkerRequest = { jobs: group.map((pending) => pending.job) };
    pooled.worker.postMessage(request);
  }

  /** (Re)starts the time limit of the message a worker is answering: the whole job's, or one page's. */
  function arm(pooled: PooledWorker, group: PendingJob[], limit: 'timeoutMs' | 'pageTimeoutMs'): void {
    clearTimeout(pooled.timer);
    const limitOf = (options: JobOptions) => options[limit] ?? options.timeoutMs;
    const timeoutMs = Math.max(...group.map((pending) => limitOf(pending.options)));
    pooled.timer = setTimeout(
      () =>
        died(pooled, (job) =>
          ExtractionError.cannotRead(
            job.job.fileName,
            'timeout',
            limit === 'timeoutMs'
              ? `reading it took longer than ${formatSeconds(job.options.timeoutMs)}; the file may be too large or malformed, so try splitting it`
              : `a scanned page took longer than ${formatSeconds(limitOf(job.options))} to render and read; the file may be malformed, so try splitting it`,
          ),
        ),
      timeoutMs,
    );
  }

  function answered(pooled: PooledWorker, response: WorkerResponse): void {
    const group = pooled.running;
    if (!group) return;
    if ('progress' in response) {
      // A file's recognition runs for as many pages as it has, each with its own limit in the worker: the job's
      // limit is what may pass between two pages, which only a stuck parser or renderer reaches.
      arm(pooled, group, 'pageTimeoutMs');
      for (const pending of group) if (!pending.settled) pending.options.onProgress?.(response.progress);
      return;
    }
    clearTimeout(pooled.timer);
    pooled.running = undefined;
    // Idle workers must not keep the process alive.
    pooled.worker.unref();
    group.forEach((pending, index) => {
      settleWith(pending, response.outcomes[index]!);
    });
    dispatch();
  }

  /**
   * A worker crashed, ran out of memory or time, or was stopped. A job alone fails with what happened; the jobs
   * of a group go back to the front of the queue to run alone, so only the one at fault fails.
   */
  function died(pooled: PooledWorker, failure: (job: PendingJob) => Error): void {
    const sent = pooled.running ?? [];
    const unanswered = sent.filter((pending) => !pending.settled);
    retire(pooled);
    if (sent.length > 1 && !closed) {
      for (const pending of unanswered) pending.alone = true;
      queue.unshift(...unanswered);
    } else {
      for (const pending of unanswered) settle(pending, () => pending.reject(failure(pending)));
    }
    dispatch();
  }

  function cancel(pending: PendingJob): void {
    if (pending.settled) return;
    const queued = queue.indexOf(pending);
    if (queued !== -1) queue.splice(queued, 1);
    // A job running alone may be a parser stuck on a hostile file: stop its worker. One in a group lets the
    // others finish; its answer is dropped.
    const owner = workers.find((pooled) => pooled.running?.includes(pending));
    settle(pending, () => pending.reject(cancelled(pending.job.fileName, pending.options.signal?.reason)));
    if (owner && owner.running?.length === 1) {
      retire(owner);
      dispatch();
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
    await Promise.all(workers.map((pooled) => pooled.worker.terminate()));
  }

  return { run, close };
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
