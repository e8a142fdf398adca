import { Worker } from 'node:worker_threads';
import { ExtractionError } from './errors.ts';
import type { WorkerJob, WorkerRequest, WorkerResponse, WorkerResult } from './worker.ts';

// Node runs the sources directly in development (type stripping) and the compiled .js after a build.
const WORKER_URL = new URL(import.meta.url.endsWith('.ts') ? './worker.ts' : './worker.js', import.meta.url);

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
  maxMemoryMb: number;
  signal?: AbortSignal | undefined;
}

export interface WorkerPool {
  /** Runs one job in a worker; the time and memory limits cover all of it. */
  run<Job extends WorkerJob>(job: Job, options: JobOptions): Promise<WorkerResult<Job>>;
  /** Terminates every worker; jobs still running fail. */
  close(): Promise<void>;
}

interface PooledWorker {
  worker: Worker;
  memoryMb: number;
  busy: boolean;
}

/**
 * Parsers run in worker threads with a heap limit, so a hostile file can exhaust only its worker's memory and
 * a stuck parser can be terminated. Chunking and offline embedding run there too, in the parser's job, which
 * keeps that CPU work off the thread serving requests. Workers are kept for reuse; one started with another
 * memory limit is replaced when a job needs a different one.
 */
export function createWorkerPool(size: number): WorkerPool {
  const workers: PooledWorker[] = [];
  const waiting: (() => void)[] = [];
  let nextId = 0;

  function spawn(memoryMb: number): PooledWorker {
    const pooled: PooledWorker = {
      worker: new Worker(WORKER_URL, {
        resourceLimits: {
          maxOldGenerationSizeMb: memoryMb,
          maxYoungGenerationSizeMb: youngGenerationMb(memoryMb),
        },
      }),
      memoryMb,
      busy: true,
    };
    // A worker that dies while idle must not take the daemon with it (an unhandled 'error' would).
    pooled.worker.on('error', () => retire(pooled));
    pooled.worker.on('exit', () => retire(pooled));
    workers.push(pooled);
    return pooled;
  }

  function retire(pooled: PooledWorker): void {
    const index = workers.indexOf(pooled);
    if (index === -1) return;
    workers.splice(index, 1);
    void pooled.worker.terminate();
    waiting.shift()?.();
  }

  function release(pooled: PooledWorker): void {
    pooled.busy = false;
    // Idle workers must not keep the process alive.
    pooled.worker.unref();
    waiting.shift()?.();
  }

  async function acquire(memoryMb: number, signal: AbortSignal | undefined): Promise<PooledWorker> {
    for (;;) {
      signal?.throwIfAborted();
      const idle = workers.find((pooled) => !pooled.busy && pooled.memoryMb === memoryMb);
      if (idle) {
        idle.busy = true;
        return idle;
      }
      if (workers.length >= size) {
        const other = workers.find((pooled) => !pooled.busy);
        if (other) retire(other);
      }
      if (workers.length < size) return spawn(memoryMb);
      await turn(signal);
    }
  }

  function turn(signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        waiting.splice(waiting.indexOf(wake), 1);
        reject(signal?.reason);
      };
      const wake = (): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      waiting.push(wake);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  async function run<Job extends WorkerJob>(job: Job, options: JobOptions): Promise<WorkerResult<Job>> {
    const { fileName } = job;
    let pooled: PooledWorker;
    try {
      pooled = await acquire(options.maxMemoryMb, options.signal);
    } catch (error) {
      if (options.signal?.aborted) throw cancelled(fileName, error);
      throw ExtractionError.cannotRead(fileName, 'unreadable', 'the reader could not be started', error);
    }
    pooled.worker.ref();
    return new Promise((resolve, reject) => {
      const id = nextId++;
      const { worker } = pooled;
      const settle = (outcome: () => void, keepWorker: boolean): void => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        options.signal?.removeEventListener('abort', onAbort);
        if (keepWorker) release(pooled);
        else retire(pooled);
        outcome();
      };
      const onMessage = (response: WorkerResponse): void => {
        if (response.id !== id) return;
        settle(() => {
          // Messages between threads are untyped; the worker answers each job kind with that kind's result.
          if (response.ok) resolve(response.result as WorkerResult<Job>);
          else if ('internal' in response) reject(workerBug(response.internal));
          else reject(new ExtractionError(response.reason, response.message));
        }, true);
      };
      const onError = (error: Error): void =>
        settle(() => reject(crashed(fileName, error, options.maxMemoryMb)), false);
      const onExit = (code: number): void =>
        settle(
          () =>
            reject(
              ExtractionError.cannotRead(
                fileName,
                'unreadable',
                `the reader stopped unexpectedly (exit code ${code})`,
              ),
            ),
          false,
        );
      const onAbort = (): void => settle(() => reject(cancelled(fileName, options.signal?.reason)), false);
      const timer = setTimeout(
        () =>
          settle(
            () =>
              reject(
                ExtractionError.cannotRead(
                  fileName,
                  'timeout',
                  `reading it took longer than ${formatSeconds(options.timeoutMs)}; the file may be too large or malformed, so try splitting it`,
                ),
              ),
            false,
          ),
        options.timeoutMs,
      );
      worker.on('message', onMessage);
      worker.once('error', onError);
      worker.once('exit', onExit);
      options.signal?.addEventListener('abort', onAbort, { once: true });
      if (options.signal?.aborted) {
        onAbort();
        return;
      }
      const request: WorkerRequest = { ...job, id };
      worker.postMessage(request);
    });
  }

  async function close(): Promise<void> {
    await Promise.all(workers.splice(0).map((pooled) => pooled.worker.terminate()));
  }

  return { run, close };
}

function crashed(fileName: string, error: Error, maxMemoryMb: number): ExtractionError {
  if ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return ExtractionError.cannotRead(
      fileName,
      'out_of_memory',
      `reading it needed more than ${maxMemoryMb} MB of memory; split the file into smaller parts`,
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
