import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { HtmlPage } from '../extract/index.ts';

/** Turns HTML into page text off the main thread. */
export interface HtmlExtractor {
  extract(html: string, url: string): Promise<HtmlPage>;
}

interface Task {
  html: string;
  url: string;
  resolve: (page: HtmlPage) => void;
  reject: (error: Error) => void;
  timer?: NodeJS.Timeout;
}

type Reply = { page: HtmlPage } | { error: string };

/** Bounds for one page: a hostile or broken page costs its page, never the daemon's memory or a stuck crawl. */
const WORKER_HEAP_MB = 256;
const PAGE_TIMEOUT_MS = 30_000;

const workerFile = new URL(
  import.meta.url.endsWith('.ts') ? './html-worker.ts' : './html-worker.js',
  import.meta.url,
);

/**
 * Readability takes from tens of milliseconds to over a second per page, which would stall the daemon's
 * event loop during a crawl; worker threads keep it responsive and use every core. Idle workers are
 * unreferenced, so the pool never holds the process open, and they are kept because starting one
 * (loading linkedom and Readability) costs more than a typical page.
 */
export function createHtmlExtractor(size = availableParallelism()): HtmlExtractor {
  const workers = new Set<Worker>();
  const idle: Worker[] = [];
  const queue: Task[] = [];
  const running = new Map<Worker, Task>();

  const dispatch = () => {
    while (queue.length > 0 && (idle.length > 0 || workers.size < size)) {
      const worker = idle.pop() ?? spawn();
      const task = queue.shift()!;
      running.set(worker, task);
      worker.ref();
      task.timer = setTimeout(() => {
        retire(worker, new Error(`reading the page took longer than ${PAGE_TIMEOUT_MS / 1000} s`));
        void worker.terminate();
      }, PAGE_TIMEOUT_MS);
      worker.postMessage({ html: task.html, url: task.url });
    }
  };
  const settle = (worker: Worker, outcome: (task: Task) => void) => {
    const task = running.get(worker);
    running.delete(worker);
    if (!task) return;
    clearTimeout(task.timer);
    outcome(task);
  };
  const retire = (worker: Worker, error: Error) => {
    workers.delete(worker);
    const idleIndex = idle.indexOf(worker);
    if (idleIndex >= 0) idle.splice(idleIndex, 1);
    settle(worker, (task) => task.reject(error));
    dispatch();
  };
  const spawn = (): Worker => {
    const worker = new Worker(workerFile, { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    worker.on('message', (reply: Reply) => {
      settle(worker, (task) =>
        'page' in reply ? task.resolve(reply.page) : task.reject(new Error(reply.error)),
      );
      worker.unref();
      idle.push(worker);
      dispatch();
    });
    worker.on('error', (error) => retire(worker, error));
    worker.on('exit', (code) =>
      retire(worker, new Error(`the HTML extraction worker stopped (exit code ${code})`)),
    );
    workers.add(worker);
    return worker;
  };

  return {
    extract: (html, url) =>
      new Promise<HtmlPage>((resolve, reject) => {
        queue.push({ html, url, resolve, reject });
        dispatch();
      }),
  };
}

/** The one pool every crawl and URL list shares. */
export const sharedHtmlExtractor: HtmlExtractor = createHtmlExtractor();
