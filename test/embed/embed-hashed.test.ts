import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalize } from '../../daemon/embed/embedder.ts';
import { createHashedEmbedder } from '../../daemon/embed/hashed.ts';
import { isStopWord, stem, words } from '../../daemon/text/words.ts';

/** The embedder's definition written plainly, with a string per feature: the fast one must give the same. */
function referenceVector(text: string, dimensions: number): Float32Array {
  const features = new Map<string, number>();
  const add = (feature: string, weight: number) =>
    features.set(feature, (features.get(feature) ?? 0) + weight);
  let previous: string | undefined;
  for (const word of words(text)) {
    if (isStopWord(word)) {
      previous = undefined;
      continue;
    }
    const term = stem(word);
    add(`w:${term}`, 1);
    if (previous !== undefined) add(`b:${previous} ${term}`, 0.5);
    previous = term;
    const padded = `<${word}>`;
    const grams: string[] = [];
    for (const size of [3, 4, 5]) {
      for (let start = 0; start + size <= padded.length; start++)
        grams.push(padded.slice(start, start + size));
    }
    for (const gram of grams) add(`c:${gram}`, 1 / Math.sqrt(grams.length));
  }
  const vector = new Float32Array(dimensions);
  for (const [feature, weight] of features) {
    let hash = 0x811c9dc5;
    for (let index = 0; index < feature.length; index++) {
      hash = Math.imul(hash ^ feature.charCodeAt(index), 0x01000193);
    }
    hash >>>= 0;
    vector[(hash & 0x7fffffff) % dimensions]! +=
      (hash & 0x80000000 ? -1 : 1) * (weight > 1 ? 1 + Math.log(weight) : weight);
  }
  return normalize(vector);
}

const wordsText = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        'the',
        'rocket',
        'rockets',
        'launched',
        'Moon',
        'moon',
        'café',
        'naïve',
        'Straße',
        'a1b2',
      ),
      fc.string({ maxLength: 8 }),
    ),
    { maxLength: 300 },
  )
  .map((parts) => parts.join(' '));

describe('hashed embedder', () => {
  it('gives the vectors of its plain definition, on one text or many', async () => {
    const embedder = createHashedEmbedder({ dimensions: 256 });
    await fc.assert(
      fc.asyncProperty(fc.array(wordsText, { minLength: 1, maxLength: 4 }), async (texts) => {
        const vectors = await embedder.embed(texts);
        texts.forEach((text, position) => {
          const expected = referenceVector(text, 256);
          vectors[position]!.forEach((value, dimension) => {
            expect(value).toBeCloseTo(expected[dimension]!, 5);
          });
        });
      }),
      { numRuns: 200 },
    );
  });

  it('handles texts with more distinct features than its first table holds', async () => {
    const embedder = createHashedEmbedder({ dimensions: 512 });
    const text = Array.from({ length: 3000 }, (_, index) => `word${index}x`).join(' ');
    const [vector] = await embedder.embed([text]);
    const expected = referenceVector(text, 512);
    vector!.forEach((value, dimension) => {
      expect(value).toBeCloseTo(expected[dimension]!, 5);
    });
  });
});
