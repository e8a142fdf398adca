import { type ResourceLimits, type Transferable, Worker } from 'node:worker_threads';

/** How a message a worker was given ended without its answer. */
export type Interruption =
  | { kind: 'timeout' }
  /** It threw outside its own handling, or ran out of memory (`ERR_WORKER_OUT_OF_MEMORY`). */
  | { kind: 'crash'; error: Error }
  /** It exited: by itself, or because the pool was closed. */
  | { kind: 'exit'; code: number };

/** What a worker is busy with: the owner's handlers for the worker's messages and for its end. */
export interface Assignment<Reply> {
  /** A message from the worker: true when it is the answer (the worker is free again), false for news. */
  onMessage(reply: Reply): boolean;
  onInterrupt(interruption: Interruption): void;
}

export interface PooledThread<Request, Reply> {
  readonly memoryMb: number;
  /** Gives the worker a message to answer within `timeoutMs`. */
  assign(request: Request, assignment: Assignment<Reply>, timeoutMs: number, transfer?: Transferable[]): void;
  /** Restarts the time limit of the message being answered (news showed the worker is not stuck). */
  extend(timeoutMs: number): void;
  /** Terminates the worker, whose assignment the owner has given up: its handlers are not called. */
  stop(): void;
}

export interface ThreadPool<Request, Reply> {
  /**
   * A free worker with this heap limit: a kept one, else a new one while the pool has room, else a new one in
   * place of a free one with another limit. None when every worker is busy.
   */
  free(memoryMb: number): PooledThread<Request, Reply> | undefined;
  /** Terminates every worker; busy ones are interrupted with `exit`. */
  close(): Promise<void>;
}

export interface ThreadPoolOptions {
  /** The worker's module, which must answer each message it is given (and may send news before). */
  url: URL;
  size: number;
  resourceLimits(memoryMb: number): ResourceLimits;
  /** A worker became free or went away: the owner can hand out work waiting for one. */
  onFree(): void;
}

interface Slot<Request, Reply> {
  thread: PooledThread<Request, Reply>;
  worker: Worker;
  assignment: Assignment<Reply> | undefined;
  timer: NodeJS.Timeout | undefined;
}

/**
 * Worker threads with a heap limit and a time limit per message, so untrusted input can exhaust only its worker's
 * memory and a stuck parser can be terminated. Workers are kept for reuse, because starting one (loading its
 * parsers) costs more than a typical job, and free ones are unreferenced, so the pool never holds the process
 * open. A worker that crashes, exits or runs out of time is dropped, and the next job starts a new one. The
 * queue is the owner's: it decides which work goes in a message when `free` gives it a worker.
 */
export function createThreadPool<Request, Reply>(options: ThreadPoolOptions): ThreadPool<Request, Reply> {
  const slots: Slot<Request, Reply>[] = [];

  function spawn(memoryMb: number): Slot<Request, Reply> {
    const worker = new Worker(options.url, { resourceLimits: options.resourceLimits(memoryMb) });
    const slot: Slot<Request, Reply> = {
      worker,
      assignment: undefined,
      timer: undefined,
      thread: {
        memoryMb,
        assign(request, assignment, timeoutMs, transfer) {
          slot.assignment = assignment;
          worker.ref();
          arm(slot, timeoutMs);
          worker.postMessage(request, transfer);
        },
        extend: (timeoutMs) => arm(slot, timeoutMs),
        stop() {
          retire(slot);
          options.onFree();
        },
      },
    };
    worker.on('message', (reply: Reply) => {
      if (!slot.assignment?.onMessage(reply)) return;
      clearTimeout(slot.timer);
      slot.assignment = undefined;
      worker.unref();
      options.onFree();
    });
    // A worker that dies, busy or not, must not take the daemon with it (an unhandled 'error' would).
    worker.on('error', (error: Error) => interrupt(slot, { kind: 'crash', error }));
    worker.on('exit', (code: number) => interrupt(slot, { kind: 'exit', code }));
    slots.push(slot);
    return slot;
  }

  function arm(slot: Slot<Request, Reply>, timeoutMs: number): void {
    clearTimeout(slot.timer);
    slot.timer = setTimeout(() => interrupt(slot, { kind: 'timeout' }), timeoutMs);
  }

  /** Drops a worker; returns what it was busy with, unless it was dropped already. */
  function retire(slot: Slot<Request, Reply>): Assignment<Reply> | undefined {
    const index = slots.indexOf(slot);
    if (index === -1) return undefined;
    slots.splice(index, 1);
    clearTimeout(slot.timer);
    const { assignment } = slot;
    slot.assignment = undefined;
    void slot.worker.terminate();
    return assignment;
  }

  function interrupt(slot: Slot<Request, Reply>, interruption: Interruption): void {
    if (!slots.includes(slot)) return;
    retire(slot)?.onInterrupt(interruption);
    options.onFree();
  }

  function free(memoryMb: number): PooledThread<Request, Reply> | undefined {
    const kept = slots.find((slot) => !slot.assignment && slot.thread.memoryMb === memoryMb);
    if (kept) return kept.thread;
    if (slots.length >= options.size) {
      const other = slots.find((slot) => !slot.assignment);
      if (!other) return undefined;
      retire(other);
    }
    return spawn(memoryMb).thread;
  }

  async function close(): Promise<void> {
    // Busy workers are interrupted by their 'exit' as they stop.
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  return { free, close };
}
