import { afterEach, describe, expect, it } from 'vitest';
import type { ChunkedDocument } from '../../daemon/ingest/chunk-and-embed.ts';
import { createExtractionPool, type ExtractionPool } from '../../daemon/ingest/extract/pool.ts';
import { failureOf } from '../support/extraction-failure.ts';

const SCRIPTED_WORKER = new URL('../support/scripted-worker.ts', import.meta.url);
const LIMITS = { timeoutMs: 10_000, maxMemoryMb: 64 };
let pool: ExtractionPool;

afterEach(async () => {
  await pool.close();
});

function chunkText(text: string, signal?: AbortSignal): Promise<ChunkedDocument> {
  const job = {
    kind: 'chunk' as const,
    fileName: text,
    source: { document: { pages: [{ page: 1, text }] } },
  };
  return pool.run(job, { ...LIMITS, signal });
}

/** Where the scripted worker says each job ran: `message N of M`. */
function placeOf(chunked: ChunkedDocument): string {
  return chunked.chunks[0]!.headings[0]!;
}

describe('the worker pool with documents made on the main thread', () => {
  it('sends the documents waiting for a worker in one message, each answered with its own result', async () => {
    pool = createExtractionPool(1, SCRIPTED_WORKER);
    const texts = ['slow 50', 'one', 'two', 'three', 'four'];
    const results = await Promise.all(texts.map((text) => chunkText(text)));
    expect(results.map((result) => result.chunks[0]!.text)).toEqual(texts);
    expect(results.map(placeOf)).toEqual([
      'message 1 of 1',
      'message 2 of 4',
      'message 2 of 4',
      'message 2 of 4',
      'message 2 of 4',
    ]);
  });

  it('shares the waiting documents between the workers rather than giving one worker all of them', async () => {
    pool = createExtractionPool(2, SCRIPTED_WORKER);
    const texts = ['slow 50', 'slow 50', 'a', 'b', 'c', 'd'];
    const places = (await Promise.all(texts.map((text) => chunkText(text)))).map(placeOf);
    // Both workers were busy when the four came. The first one free took enough to match the other's load
    // (three, against the one it was running), and the last one went in a message of its own.
    const messageSizes = places.slice(2).map((place) => place.replace(/^message \d+ /, ''));
    expect(messageSizes).toEqual(['of 3', 'of 3', 'of 3', 'of 1']);
  });

  it('runs the documents of a message whose worker died again one by one, so only the one at fault fails', async () => {
    pool = createExtractionPool(1, SCRIPTED_WORKER);
    const blocker = chunkText('slow 50');
    const before = chunkText('before');
    const crash = failureOf(chunkText('crash'));
    const after = chunkText('after');
    await blocker;
    expect(placeOf(await before)).toBe('message 1 of 1');
    expect(placeOf(await after)).toBe('message 1 of 1');
    const failure = await crash;
    expect(failure.reason).toBe('unreadable');
    expect(failure.message).toBe('crash could not be read: the reader stopped unexpectedly (exit code 3)');
  });

  it('cancels one document of a message and still answers the others from the same worker', async () => {
    pool = createExtractionPool(1, SCRIPTED_WORKER);
    const controller = new AbortController();
    const blocker = chunkText('slow 20');
    const kept = chunkText('slow 100');
    const cancelled = failureOf(chunkText('dropped', controller.signal));
    await blocker;
    controller.abort();
    expect((await cancelled).reason).toBe('aborted');
    expect(placeOf(await kept)).toBe('message 2 of 2');
    // The worker was kept: the next message is its third.
    expect(placeOf(await chunkText('next'))).toBe('message 3 of 1');
  });

  it('fails the jobs running and waiting when it closes, and takes no more', async () => {
    pool = createExtractionPool(1, SCRIPTED_WORKER);
    const running = failureOf(chunkText('slow 1000'));
    const waiting = failureOf(chunkText('waiting'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await pool.close();
    expect((await running).message).toMatch(/^slow 1000 could not be read: the reader stopped unexpectedly/);
    expect((await waiting).message).toBe('waiting could not be read: the reader was stopped');
    expect((await failureOf(chunkText('later'))).message).toBe(
      'later could not be read: the reader was stopped',
    );
  });
});
