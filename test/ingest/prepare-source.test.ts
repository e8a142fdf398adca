import { afterAll, describe, expect, it } from 'vitest';
import { createHashedEmbedder } from '../../daemon/embed/hashed.ts';
import type { Embedder, EmbedOptions } from '../../daemon/embed/index.ts';
import { chunkContextText, chunkDocument } from '../../daemon/ingest/chunk.ts';
import { contextHash } from '../../daemon/ingest/content-hash.ts';
import { prepareSource } from '../../daemon/ingest/prepare-source.ts';
import { createReaders } from '../../daemon/ingest/readers.ts';
import { prose } from '../support/prose.ts';

const readers = createReaders();
afterAll(() => readers.close());

const loadOptions = {
  readers,
  fetch: {},
  extractTimeoutMs: 60_000,
  crawlMaxPages: 1,
  crawlMaxDepth: 0,
  name: 'notes',
  signal: new AbortController().signal,
};

/** Stands in for a remote embedder: no recipe, so it runs on the calling thread; records each request. */
function recordingEmbedder(): Embedder & { requests: string[][] } {
  const requests: string[][] = [];
  return {
    id: 'recording-4',
    dimensions: 4,
    requests,
    async embed(texts: string[], options?: EmbedOptions) {
      expect(options?.kind).toBe('document');
      requests.push(texts);
      return texts.map((_, index) => Float32Array.of(index, 0, 0, 1));
    },
  };
}

describe('prepareSource', () => {
  const text = prose(7, 1200);
  const chunks = chunkDocument({ pages: [{ page: 1, text }] });

  it('embeds in the worker when the embedder has a recipe', async () => {
    const embedder = createHashedEmbedder({ dimensions: 64 });
    const prepared = await prepareSource({ kind: 'text', text }, { ...loadOptions, embedder });
    expect(prepared).toMatchObject({ chunks, pages: 1, characters: text.length, warnings: [] });
    expect(prepared.vectors).toEqual(await embedder.embed(chunks.map(chunkContextText)));
  });

  it('calls an embedder without a recipe from this thread, 64 chunks per request', async () => {
    expect(chunks.length).toBeGreaterThan(64);
    const embedder = recordingEmbedder();
    const prepared = await prepareSource({ kind: 'text', text }, { ...loadOptions, embedder });
    expect(embedder.requests.map((batch) => batch.length)).toEqual(
      Array.from({ length: Math.ceil(chunks.length / 64) }, (_, index) =>
        Math.min(64, chunks.length - index * 64),
      ),
    );
    expect(embedder.requests.flat()).toEqual(chunks.map(chunkContextText));
    expect(prepared.vectors).toHaveLength(chunks.length);
  });

  it('stops before embedding once aborted', async () => {
    const embedder = recordingEmbedder();
    const outcome = prepareSource(
      { kind: 'text', text },
      { ...loadOptions, embedder, signal: AbortSignal.abort() },
    );
    await expect(outcome).rejects.toThrow();
    expect(embedder.requests).toEqual([]);
  });

  it('takes the vectors of chunks whose text is known, and embeds only the others, in the worker or here', async () => {
    // An edit that keeps the paragraph's length. One that lengthens it may move every later boundary of a page
    // packed tight (chunking is greedy): this fixture's uniform paragraphs re-chunk whole at 768 tokens.
    const edited = text.replace('Section 7.5:', 'Section 7.5;');
    const editedChunks = chunkDocument({ pages: [{ page: 1, text: edited }] });
    const changed = editedChunks.filter((chunk, index) => chunk.text !== chunks[index]?.text);
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.length).toBeLessThan(4);
    const recording = recordingEmbedder();
    const embedders: [Embedder, string[][] | undefined][] = [
      [createHashedEmbedder({ dimensions: 64 }), undefined],
      [recording, recording.requests],
    ];
    for (const [embedder, requests] of embedders) {
      const first = await prepareSource({ kind: 'text', text }, { ...loadOptions, embedder });
      const known = new Map(
        first.chunks.map((chunk, index) => [contextHash(chunkContextText(chunk)), first.vectors[index]!]),
      );
      const before = requests?.length ?? 0;
      const again = await prepareSource(
        { kind: 'text', text: edited },
        { ...loadOptions, embedder, reusable: async () => known },
      );
      expect(again.chunks).toEqual(editedChunks);
      expect(again).toMatchObject({ embedded: changed.length, embeddedPages: 1 });
      if (requests) expect(requests.slice(before).flat()).toEqual(changed.map(chunkContextText));
      else expect(again.vectors).toEqual(await embedder.embed(editedChunks.map(chunkContextText)));
      const unchanged = again.chunks.findIndex((chunk) => !changed.some((edit) => edit.text === chunk.text));
      expect(unchanged).toBeGreaterThanOrEqual(0);
      expect(again.vectors[unchanged]).toBe(
        known.get(contextHash(chunkContextText(again.chunks[unchanged]!))),
      );
    }
  });
});
