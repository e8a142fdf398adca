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
/** Distinct words remembered; past it the cache starts over, so memory stays bounded on any input. */
const WORD_CACHE_SIZE = 200_000;
const FNV_OFFSET = 0x811c9dc5;

/** Everything a word contributes that does not depend on its neighbours, hashed once per distinct word. */
interface WordFeatures {
  term: string;
  termHash: number;
  /** FNV state after `b:<term> `: a bigram's hash continues from it over the next term. */
  bigramPrefix: number;
  gramHashes: Uint32Array;
  gramWeight: number;
}

/**
 * Feature hashing of stemmed words, word bigrams and character n-grams into a fixed space with sublinear term
 * frequency. No model, no network: deterministic and fast. Character n-grams let morphological variants and
 * typos meet.
 */
export function createHashedEmbedder(options: HashedEmbedderOptions = {}): Embedder {
  const dimensions = options.dimensions ?? 1024;
  const vectorOf = createHashedVectorizer(dimensions);
  return {
    id: `offline-hash-${dimensions}-v1`,
    dimensions,
    recipe: { kind: 'hashed', dimensions },
    embed: async (texts: string[], embedOptions?: EmbedOptions) => {
      embedOptions?.signal?.throwIfAborted();
      return texts.map(vectorOf);
    },
  };
}

/**
 * Returns a function from text to its hashed vector. Word features are memoised (word frequencies follow
 * Zipf's law, so a small cache serves most words) and features are hashed over character codes, so a text
 * costs a map lookup per word rather than a few dozen substrings.
 */
export function createHashedVectorizer(dimensions: number): (text: string) => Float32Array {
  const cache = new Map<string, WordFeatures>();
  const weights = new FeatureWeights();
  const featuresOf = (word: string): WordFeatures => {
    let features = cache.get(word);
    if (features) return features;
    if (cache.size >= WORD_CACHE_SIZE) cache.clear();
    features = wordFeatures(word);
    cache.set(word, features);
    return features;
  };
  return (text) => {
    let previous: WordFeatures | undefined;
    for (const word of words(text)) {
      if (isStopWord(word)) {
        previous = undefined;
        continue;
      }
      const features = featuresOf(word);
      weights.add(features.termHash, WORD_WEIGHT);
      if (previous !== undefined)
        weights.add(fnvContinue(previous.bigramPrefix, features.term), BIGRAM_WEIGHT);
      previous = features;
      for (const hash of features.gramHashes) weights.add(hash, features.gramWeight);
    }
    const vector = new Float32Array(dimensions);
    weights.drain((hash, weight) => {
      const sign = hash & 0x80000000 ? -1 : 1;
      vector[(hash & 0x7fffffff) % dimensions]! += sign * sublinear(weight);
    });
    return normalize(vector);
  };
}

/**
 * Total weight per feature hash: an open-addressing table in typed arrays, reused from text to text, where a
 * Map would allocate per entry. It grows when more than half full.
 */
class FeatureWeights {
  private keys = new Uint32Array(1 << 14);
  private values = new Float64Array(1 << 14);
  private used = new Uint8Array(1 << 14);
  private slots: number[] = [];

  add(hash: number, weight: number): void {
    const mask = this.keys.length - 1;
    let slot = (Math.imul(hash, 0x9e3779b1) >>> 0) & mask;
    while (this.used[slot] === 1 && this.keys[slot] !== hash) slot = (slot + 1) & mask;
    if (this.used[slot] === 1) {
      this.values[slot]! += weight;
      return;
    }
    this.used[slot] = 1;
    this.keys[slot] = hash;
    this.values[slot] = weight;
    this.slots.push(slot);
    if (this.slots.length * 2 > this.keys.length) this.grow();
  }

  /** Hands out every feature once and leaves the table empty. */
  drain(visit: (hash: number, weight: number) => void): void {
    for (const slot of this.slots) {
      visit(this.keys[slot]!, this.values[slot]!);
      this.used[slot] = 0;
    }
    this.slots = [];
  }

  private grow(): void {
    const entries: [number, number][] = [];
    this.drain((hash, weight) => entries.push([hash, weight]));
    const size = this.keys.length * 2;
    this.keys = new Uint32Array(size);
    this.values = new Float64Array(size);
    this.used = new Uint8Array(size);
    for (const [hash, weight] of entries) this.add(hash, weight);
  }
}

function wordFeatures(word: string): WordFeatures {
  const term = stem(word);
  const padded = `<${word}>`;
  const gramCount = NGRAM_SIZES.reduce((sum, size) => sum + Math.max(0, padded.length - size + 1), 0);
  const gramHashes = new Uint32Array(gramCount);
  const gramPrefix = fnvContinue(FNV_OFFSET, 'c:');
  const smallest = NGRAM_SIZES[0];
  const largest = NGRAM_SIZES[NGRAM_SIZES.length - 1]!;
  let count = 0;
  for (let start = 0; start + smallest <= padded.length; start++) {
    let hash = gramPrefix;
    for (let size = 1; size <= largest && start + size <= padded.length; size++) {
      hash = fnvStep(hash, padded.charCodeAt(start + size - 1));
      if (size >= smallest) gramHashes[count++] = hash;
    }
  }
  return {
    term,
    termHash: fnvContinue(fnvContinue(FNV_OFFSET, 'w:'), term),
    bigramPrefix: fnvStep(fnvContinue(fnvContinue(FNV_OFFSET, 'b:'), term), 0x20),
    gramHashes,
    gramWeight: CHARACTER_WEIGHT / Math.sqrt(gramCount),
  };
}

/** Repeating a term raises its weight less and less, as in BM25 and log-tf weighting. */
function sublinear(weight: number): number {
  return weight > 1 ? 1 + Math.log(weight) : weight;
}

/** FNV-1a over UTF-16 code units, continued from a state so shared prefixes are hashed once. */
function fnvContinue(state: number, text: string): number {
  let hash = state;
  for (let index = 0; index < text.length; index++) hash = fnvStep(hash, text.charCodeAt(index));
  return hash;
}

function fnvStep(state: number, code: number): number {
  return Math.imul(state ^ code, 0x01000193) >>> 0;
}
