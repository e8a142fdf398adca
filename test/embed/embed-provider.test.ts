import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEmbedder } from '../../daemon/embed/index.ts';
import { EmbeddingProviderError } from '../../daemon/embed/openai.ts';
import { type FakeOpenAI, fakeEmbedding, startFakeOpenAI } from '../support/fake-openai.ts';

describe('OpenAI-compatible embedder', () => {
  let vendor: FakeOpenAI;

  beforeEach(async () => {
    vendor = await startFakeOpenAI({ embeddingDimensions: 48 });
  });

  afterEach(async () => {
    await vendor.close();
  });

  it('embeds with text-embedding-3-small by default, in order, normalised', async () => {
    await vendor.close();
    vendor = await startFakeOpenAI();
    const embedder = await createEmbedder({
      provider: { baseUrl: vendor.baseUrl, apiKey: 'k' },
      cacheDir: '/x',
    });
    expect(embedder).toMatchObject({ id: 'provider-text-embedding-3-small-1536', dimensions: 1536 });
    const vectors = await embedder.embed(['first text', 'second text']);
    expect(Array.from(vectors[1]!)).toEqual(Array.from(fakeEmbedding('second text', 1536)).map(Math.fround));
    const request = vendor.requests.at(-1)!;
    expect(request.body).toMatchObject({
      model: 'text-embedding-3-small',
      input: ['first text', 'second text'],
    });
    expect(request.headers.authorization).toBe('Bearer k');
  });

  it('learns the dimensions of an unknown model and records them in its id', async () => {
    const embedder = await createEmbedder({
      provider: { baseUrl: vendor.baseUrl, model: 'nomic-embed-text' },
      cacheDir: '/x',
    });
    expect(embedder).toMatchObject({ id: 'provider-nomic-embed-text-48', dimensions: 48 });
  });

  it('rejects vectors of another size than the model announced', async () => {
    const embedder = await createEmbedder({ provider: { baseUrl: vendor.baseUrl }, cacheDir: '/x' });
    await expect(embedder.embed(['text'])).rejects.toThrow(/48 dimensions, expected 1536/);
  });

  it('splits large inputs into requests of at most 2,048 texts', async () => {
    const embedder = await createEmbedder({
      provider: { baseUrl: vendor.baseUrl, model: 'm' },
      cacheDir: '/x',
    });
    const vectors = await embedder.embed(Array.from({ length: 2100 }, (_, index) => `text ${index}`));
    expect(vectors).toHaveLength(2100);
    expect(vendor.requests.map((request) => (request.body as { input: string[] }).input.length)).toEqual([
      1, 2048, 52,
    ]);
  });

  it('retries a rate-limited request', async () => {
    const embedder = await createEmbedder({
      provider: { baseUrl: vendor.baseUrl, model: 'm' },
      cacheDir: '/x',
    });
    vendor.enqueue({ type: 'status', status: 429, retryAfterSeconds: 0 });
    await expect(embedder.embed(['text'])).resolves.toHaveLength(1);
    expect(vendor.requests).toHaveLength(3);
  });

  it('fails with a message naming the model and the endpoint', async () => {
    const embedder = await createEmbedder({ provider: { baseUrl: vendor.baseUrl }, cacheDir: '/x' });
    vendor.enqueue({ type: 'status', status: 401, message: 'bad key' });
    const failure = embedder.embed(['text']);
    await expect(failure).rejects.toBeInstanceOf(EmbeddingProviderError);
    await expect(failure).rejects.toThrow(`embedding model "text-embedding-3-small" at ${vendor.baseUrl}`);
  });
});
