import { afterEach, describe, expect, it } from 'vitest';
import { createThreadPool, type Interruption, type ThreadPool } from '../../daemon/ingest/thread-pool.ts';
import type { Errand, ErrandReply } from '../support/errand-worker.ts';

const ERRAND_WORKER = new URL('../support/errand-worker.ts', import.meta.url);
let pool: ThreadPool<Errand, ErrandReply>;

afterEach(async () => {
  await pool.close();
});

function createPool(size: number): ThreadPool<Errand, ErrandReply> {
  pool = createThreadPool({
    url: ERRAND_WORKER,
    size,
    resourceLimits: (memoryMb) => ({ maxOldGenerationSizeMb: memoryMb }),
    onFree: () => {},
  });
  return pool;
}

/** Runs an errand on a free worker: its thread id, or how it was interrupted; and the news it sent. */
function run(
  errand: Errand,
  {
    memoryMb = 64,
    timeoutMs = 10_000,
    extendMs,
  }: { memoryMb?: number; timeoutMs?: number; extendMs?: number } = {},
): Promise<{ threadId?: number; interruption?: Interruption; news: number }> {
  const thread = pool.free(memoryMb);
  if (!thread) throw new Error('no free worker');
  return new Promise((resolve) => {
    let news = 0;
    thread.assign(
      errand,
      {
        onMessage(reply) {
          if ('news' in reply) {
            news = reply.news;
            if (extendMs) thread.extend(extendMs);
            return false;
          }
          resolve({ threadId: reply.threadId, news });
          return true;
        },
        onInterrupt: (interruption) => resolve({ interruption, news }),
      },
      timeoutMs,
    );
  });
}

describe('the thread pool', () => {
  it('keeps a free worker for the next message with the same heap limit, and replaces it for another', async () => {
    createPool(1);
    const first = await run({});
    expect((await run({})).threadId).toBe(first.threadId);
    expect((await run({}, { memoryMb: 32 })).threadId).not.toBe(first.threadId);
  });

  it('gives no worker when every one is busy', async () => {
    createPool(1);
    const busy = run({ waitMs: 50 });
    expect(pool.free(64)).toBeUndefined();
    await busy;
    expect(pool.free(64)).toBeDefined();
  });

  it('interrupts a message past its time limit, which news restarts', async () => {
    createPool(2);
    // Both workers start first: a start slowed by a busy machine would otherwise eat into the first limit.
    const started = await Promise.all([run({}), run({})]);
    expect(new Set(started.map((warm) => warm.threadId)).size).toBe(2);
    // Five news 200 ms apart and the answer 200 ms later outlast the first 800 ms only if news restarts them.
    const [late, kept] = await Promise.all([
      run({ waitMs: 3_000 }, { timeoutMs: 800 }),
      run({ news: 5, waitMs: 200 }, { timeoutMs: 800, extendMs: 800 }),
    ]);
    expect(late.interruption).toEqual({ kind: 'timeout' });
    expect(kept).toMatchObject({ news: 5, threadId: expect.any(Number) });
  });

  it('interrupts a message whose worker exits, and starts a new worker for the next', async () => {
    createPool(1);
    const first = await run({});
    expect((await run({ exit: 3 })).interruption).toEqual({ kind: 'exit', code: 3 });
    expect((await run({})).threadId).not.toBe(first.threadId);
  });

  it('interrupts the messages being answered when it closes', async () => {
    createPool(1);
    const running = run({ waitMs: 1_000 });
    await pool.close();
    expect((await running).interruption).toMatchObject({ kind: 'exit' });
  });
});
