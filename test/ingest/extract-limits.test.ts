import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createExtractor } from '../../daemon/ingest/extract/index.ts';
import { corpusOrSkip } from '../support/corpus.ts';
import { failureOf } from '../support/extraction-failure.ts';
import { buildPdf } from '../support/fixtures-documents.ts';

// A real ten-page PDF slow enough to parse that a time limit, an abort and a queue can be seen acting on it.
const corpus = corpusOrSkip('the extraction-limit tests that parse files/pdf/testJournalParser.pdf');
const bigPdf = join(corpus ?? '', 'files/pdf/testJournalParser.pdf');
const extractor = createExtractor(2);
afterAll(() => extractor.close());

// Many small objects: the flattened lines outgrow a small heap long before the parse ends.
function memoryHungryJson(): Uint8Array {
  const people = Array.from({ length: 200_000 }, (_, index) => ({
    name: `person ${index}`,
    tags: ['a', 'b', 'c'],
  }));
  return new TextEncoder().encode(JSON.stringify(people));
}

async function stillWorks(): Promise<void> {
  const document = await extractor.extractBuffer(await buildPdf(['Still afloat']), 'after.pdf');
  expect(document.pages).toEqual([{ page: 1, text: 'Still afloat' }]);
}

describe('extraction limits', () => {
  it.skipIf(corpus === undefined)(
    'terminates a parse that exceeds the time limit, then extracts the next file',
    async () => {
      const started = performance.now();
      const failure = await failureOf(extractor.extractFile(bigPdf, 'journal.pdf', { timeoutMs: 50 }));
      expect(performance.now() - started).toBeLessThan(1000);
      expect(failure.reason).toBe('timeout');
      expect(failure.message).toBe(
        'journal.pdf could not be read: reading it took longer than 50 ms; the file may be too large or malformed, so try splitting it',
      );
      await stillWorks();
    },
  );

  it('turns a worker running out of memory into an error, then extracts the next file', async () => {
    const failure = await failureOf(
      extractor.extractBuffer(memoryHungryJson(), 'people.json', { maxMemoryMb: 16 }),
    );
    expect(failure.reason).toBe('out_of_memory');
    expect(failure.message).toBe(
      'people.json could not be read: reading it needed more than 16 MB of memory; split the file into smaller parts',
    );
    await stillWorks();
  });

  it.skipIf(corpus === undefined)(
    'stops when the signal aborts, whether running or not yet started',
    async () => {
      const running = await failureOf(
        extractor.extractFile(bigPdf, 'journal.pdf', { signal: AbortSignal.timeout(50) }),
      );
      expect(running.reason).toBe('aborted');
      expect(running.message).toBe('reading journal.pdf was cancelled');
      const before = await failureOf(
        extractor.extractFile(bigPdf, 'journal.pdf', { signal: AbortSignal.abort() }),
      );
      expect(before.reason).toBe('aborted');
      await stillWorks();
    },
  );

  it('queues more files than workers and answers each with its own document', async () => {
    const pdfs = await Promise.all([1, 2, 3, 4, 5].map((number) => buildPdf([`Document number ${number}`])));
    const documents = await Promise.all(
      pdfs.map((pdf, index) => extractor.extractBuffer(pdf, `file-${index}.pdf`)),
    );
    expect(documents.map((document) => document.pages[0]?.text)).toEqual(
      [1, 2, 3, 4, 5].map((n) => `Document number ${n}`),
    );
  });

  it.skipIf(corpus === undefined)(
    'cancels a queued job without disturbing the ones ahead of it',
    async () => {
      const controller = new AbortController();
      const ahead = [extractor.extractFile(bigPdf, 'a.pdf'), extractor.extractFile(bigPdf, 'b.pdf')];
      const queued = extractor.extractFile(bigPdf, 'c.pdf', { signal: controller.signal });
      // Both workers are busy by now, so the third job is waiting for one.
      setTimeout(() => controller.abort(), 100);
      expect((await failureOf(queued)).reason).toBe('aborted');
      for (const document of await Promise.all(ahead)) expect(document.pages).toHaveLength(10);
    },
  );
});

describe('hostile structure', () => {
  it('reports JSON nested deeper than the parser can follow', async () => {
    const deep = new TextEncoder().encode(`${'['.repeat(200_000)}${']'.repeat(200_000)}`);
    const failure = await failureOf(extractor.extractBuffer(deep, 'deep.json'));
    expect(failure.reason).toBe('corrupt');
    expect(failure.message).toBe(
      'deep.json could not be read: its structure is nested too deeply to be read',
    );
  });

  it('reads a deeply nested HTML page as body text instead of running Readability on it', async () => {
    const html = `<html><body>${'<div>'.repeat(2000)}deep text${'</div>'.repeat(2000)}</body></html>`;
    const document = await extractor.extractBuffer(new TextEncoder().encode(html), 'deep.html', {
      timeoutMs: 10_000,
    });
    expect(document.pages[0]?.text).toBe('deep text');
  });
});
