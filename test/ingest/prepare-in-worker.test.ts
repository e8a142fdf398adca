import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHashedEmbedder } from '../../daemon/embed/hashed.ts';
import { createEmbedder } from '../../daemon/embed/index.ts';
import { embedderFromRecipe } from '../../daemon/embed/recipe.ts';
import { chunkContextText, chunkDocument } from '../../daemon/ingest/chunk.ts';
import { createExtractor } from '../../daemon/ingest/extract/index.ts';
import { failureOf } from '../support/extraction-failure.ts';
import { startFakeOpenAI } from '../support/fake-openai.ts';
import { prose } from '../support/prose.ts';

const embedder = createHashedEmbedder({ dimensions: 256 });
const extractor = createExtractor(1);
let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'ckb-prepare-'));
});

afterAll(async () => {
  await extractor.close();
  await rm(directory, { recursive: true, force: true });
});

describe('embedder recipes', () => {
  it('rebuild the hashed embedder with the same id, dimensions and vectors', async () => {
    const rebuilt = embedderFromRecipe(embedder.recipe!);
    expect(rebuilt).toMatchObject({ id: embedder.id, dimensions: embedder.dimensions });
    const text = 'Tidal locking keeps one face of the Moon towards the Earth.';
    expect(await rebuilt.embed([text])).toEqual(await embedder.embed([text]));
  });

  it('are absent for a remote embedder, which cannot run in a worker', async () => {
    const vendor = await startFakeOpenAI({ embeddingDimensions: 8 });
    try {
      const remote = await createEmbedder({ provider: { baseUrl: vendor.baseUrl }, cacheDir: '/x' });
      expect(remote.recipe).toBeUndefined();
    } finally {
      await vendor.close();
    }
  });
});

describe('preparing in a worker', () => {
  it('reads, chunks and embeds a file in one job, as the main thread would', async () => {
    const path = join(directory, 'guide.md');
    await writeFile(path, `# Tides\n\n${prose(1, 40)}\n\n## Currents\n\n${prose(2, 20)}`);
    const chunked = await extractor.prepareFile({ path, name: 'guide.md' }, { embedder: embedder.recipe });
    const document = await extractor.extractFile(path, 'guide.md');
    const chunks = chunkDocument(document);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunked.chunks).toEqual(chunks);
    expect(chunked.pages).toBe(1);
    expect(chunked.characters).toBe(document.pages[0]!.text.length);
    const expected = await embedder.embed(chunks.map(chunkContextText));
    // One buffer for all vectors, so it crosses threads without a copy.
    expect(chunked.vectors).toEqual(new Float32Array(expected.flatMap((vector) => Array.from(vector))));
  });

  it("checks a stored file's known size against the limit without reading it, and says when it is missing", async () => {
    const path = join(directory, 'gone.md');
    const tooLarge = await failureOf(
      extractor.prepareFile({ path, name: 'gone.md', bytes: 2 * 1024 * 1024 }, { maxBytes: 1024 * 1024 }),
    );
    expect(tooLarge.message).toBe(
      'gone.md could not be read: the file is 2.0 MB, more than the limit of 1.0 MB',
    );
    const missing = await failureOf(extractor.prepareFile({ path, name: 'gone.md', bytes: 10 }));
    expect(missing.message).toBe('gone.md could not be read: the stored file is missing');
  });

  it('chunks a document made on the main thread, and leaves vectors out without a recipe', async () => {
    const document = { pages: [{ page: 1, text: prose(3, 30), url: 'https://example.com/tides' }] };
    const chunked = await extractor.prepareDocument(document, 'tides');
    expect(chunked.chunks).toEqual(chunkDocument(document));
    expect(chunked.vectors).toBeUndefined();
  });

  it('keeps the time limit over chunking and embedding, then serves the next job', async () => {
    await extractor.prepareDocument({ pages: [{ page: 1, text: 'warm up' }] }, 'warm', {
      embedder: embedder.recipe,
    });
    const long = { pages: [{ page: 1, text: prose(4, 20_000) }] };
    const failure = await failureOf(
      extractor.prepareDocument(long, 'long notes', { embedder: embedder.recipe, timeoutMs: 50 }),
    );
    expect(failure.reason).toBe('timeout');
    expect(failure.message).toMatch(/^long notes could not be read: reading it took longer than 50 ms/);
    const next = await extractor.prepareDocument({ pages: [{ page: 1, text: 'Still afloat' }] }, 'next');
    expect(next.chunks.map((chunk) => chunk.text)).toEqual(['Still afloat']);
  });

  it('keeps the heap limit over chunking', async () => {
    const failure = await failureOf(
      extractor.prepareDocument({ pages: [{ page: 1, text: prose(5, 50) }] }, 'notes', {
        embedder: embedder.recipe,
        maxMemoryMb: 8,
      }),
    );
    expect(failure.reason).toBe('out_of_memory');
  });
});
