import { availableParallelism } from 'node:os';
import type { HtmlPage } from '../extract/index.ts';
import { createThreadPool, type Interruption } from '../thread-pool.ts';
import type { HtmlReply, HtmlRequest } from './html-worker.ts';

/** Turns HTML into page text off the main thread. */
export interface HtmlExtractor {
  extract(html: string, url: string): Promise<HtmlPage>;
  /** Terminates every worker; pages being read or waiting fail. */
  close(): Promise<void>;
}

interface Task {
  request: HtmlRequest;
  resolve: (page: HtmlPage) => void;
  reject: (error: Error) => void;
}

/** Bounds for one page: a hostile or broken page costs its page, never the daemon's memory or a stuck crawl. */
const WORKER_HEAP_MB = 256;
const PAGE_TIMEOUT_MS = 30_000;

const workerFile = new URL(
  import.meta.url.endsWith('.ts') ? './html-worker.ts' : './html-worker.js',
  import.meta.url,
);

/**
 * Readability takes from tens of milliseconds to over a second per page, which would stall the daemon's event
 * loop; every page, of a crawl or of a single address, is read by these workers, which keep it responsive and
 * use every core. Each page goes in a message of its own, so a hostile page can only fail itself.
 */
export function createHtmlExtractor(size = availableParallelism()): HtmlExtractor {
  const queue: Task[] = [];
  let closed = false;
  const threads = createThreadPool<HtmlRequest, HtmlReply>({
    url: workerFile,
    size,
    resourceLimits: (memoryMb) => ({ maxOldGenerationSizeMb: memoryMb }),
    onFree: dispatch,
  });

  function dispatch(): void {
    while (queue.length > 0 && !closed) {
      const thread = threads.free(WORKER_HEAP_MB);
      if (!thread) return;
      const task = queue.shift()!;
      thread.assign(
        task.request,
        {
          onMessage(reply) {
            if ('page' in reply) task.resolve(reply.page);
            else task.reject(new Error(reply.error));
            return true;
          },
          onInterrupt: (interruption) => task.reject(interruptionError(interruption)),
        },
        PAGE_TIMEOUT_MS,
      );
    }
  }

  return {
    extract: (html, url) =>
      new Promise<HtmlPage>((resolve, reject) => {
        if (closed) {
          reject(stoppedError());
          return;
        }
        queue.push({ request: { html, url }, resolve, reject });
        dispatch();
      }),
    async close() {
      closed = true;
      for (const task of queue.splice(0)) task.reject(stoppedError());
      await threads.close();
    },
  };
}

function stoppedError(): Error {
  return new Error('the HTML extraction workers were stopped');
}

function interruptionError(interruption: Interruption): Error {
  switch (interruption.kind) {
    case 'timeout':
      return new Error(`reading the page took longer than ${PAGE_TIMEOUT_MS / 1000} s`);
    case 'crash':
      return interruption.error;
    case 'exit':
      return new Error(`the HTML extraction worker stopped (exit code ${interruption.code})`);
  }
}
