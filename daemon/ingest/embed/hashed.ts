import { type Embedder, type EmbedOptions, normalize } from './embedder.ts';
import { isStopWord, stem, words } from './words.ts';

export interface HashedEmbedderOptions {
  dimensions?: number;
}

const WORD_WEIGHT = 1;
const BIGRAM_WEIGHT = 0.5;
/** Shared among a word's n-grams, so long words do not outweigh short ones. */
const CHARACTER_WEIGHT = 1;
const NGRAM_SIZES = [3, 4, 5] as const;

/**
 * Feature hashing of stemmed words, word bigrams and character n-grams into a fixed space with sublinear term
 * frequency. No model, no network: deterministic and fast. Character n-grams let morphological variants and
 * typos meet.
 */
export function createHashedEmbedder(options: HashedEmbedderOptions = {}): Embedder {
  const dimensions = options.dimensions ?? 1024;
  return {
    id: `offline-hash-${dimensions}-v1`,
    dimensions,
    embed: async (texts: string[], embedOptions?: EmbedOptions) => {
      embedOptions?.signal?.throwIfAborted();
      return texts.map((text) => hashedVector(text, dimensions));
    },
  };
}

export function hashedVector(text: string, dimensions: number): Float32Array {
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
    add(`w:${term}`, WORD_WEIGHT);
    if (previous !== undefined) add(`b:${previous} ${term}`, BIGRAM_WEIGHT);
    previous = term;
    const grams = characterNgrams(word);
    for (const gram of grams) add(`c:${gram}`, CHARACTER_WEIGHT / Math.sqrt(grams.length));
  }
  const vector = new Float32Array(dimensions);
  for (const [feature, weight] of features) {
    const hash = fnv1a(feature);
    const sign = hash & 0x80000000 ? -1 : 1;
    vector[(hash & 0x7fffffff) % dimensions]! += sign * sublinear(weight);
  }
  return normalize(vector);
}

/** Repeating a term raises its weight less and less, as in BM25 and log-tf weighting. */
function sublinear(weight: number): number {
  return weight > 1 ? 1 + Math.log(weight) : weight;
}

function characterNgrams(word: string): string[] {
  const padded = `<${word}>`;
  const grams: string[] = [];
  for (const size of NGRAM_SIZES) {
    for (let start = 0; start + size <= padded.length; start++) grams.push(padded.slice(start, start + size));
  }
  return grams;
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
