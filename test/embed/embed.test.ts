import { describe, expect, it } from 'vitest';
import { createHashedEmbedder } from '../../daemon/embed/hashed.ts';
import { createEmbedder } from '../../daemon/embed/index.ts';

const dot = (left: Float32Array, right: Float32Array) =>
  left.reduce((sum, value, index) => sum + value * right[index]!, 0);

describe('offline hashed embedder', () => {
  const embedder = createHashedEmbedder();

  it('is the default without a provider, and names its design in its id', async () => {
    const fallback = await createEmbedder({ cacheDir: '/nonexistent' });
    expect(fallback.id).toBe(embedder.id);
    expect(embedder.id).toMatch(/^offline-hash-\d+-v\d+$/);
  });

  it('is deterministic and normalised', async () => {
    const [first, second] = await embedder.embed(['The Apollo program landed men on the Moon.', 'x']);
    const [again] = await embedder.embed(['The Apollo program landed men on the Moon.']);
    expect(first).toHaveLength(embedder.dimensions);
    expect(Array.from(again!)).toEqual(Array.from(first!));
    expect(dot(first!, first!)).toBeCloseTo(1, 5);
    expect(dot(second!, second!)).toBeCloseTo(1, 5);
  });

  it('puts related texts closer than unrelated ones', async () => {
    const [query, related, unrelated] = await embedder.embed([
      'Which rocket launched the astronauts to the moon?',
      'The Saturn V rocket launched the Apollo astronauts toward the Moon.',
      'Oxygen is a chemical element with the symbol O and atomic number 8.',
    ]);
    expect(dot(query!, related!)).toBeGreaterThan(dot(query!, unrelated!) + 0.1);
  });

  it('gives empty text a zero vector rather than NaN', async () => {
    const [empty] = await embedder.embed(['   ']);
    expect(Array.from(empty!).every((value) => value === 0)).toBe(true);
  });

  it('stops when aborted', async () => {
    await expect(embedder.embed(['text'], { signal: AbortSignal.abort() })).rejects.toThrow();
  });
});
