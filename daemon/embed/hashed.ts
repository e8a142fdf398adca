import { grown, SpanTable } from '../text/span-table.ts';
import { forEachWord, isStopWord, stem } from '../text/words.ts';
import { type Embedder, type EmbedOptions, normalize } from './embedder.ts';

export interface HashedEmbedderOptions {
  dimensions?: number;
}

const WORD_WEIGHT = 1;
const BIGRAM_WEIGHT = 0.5;
/** Shared among a word's n-grams, so long words do not outweigh short ones. */
const CHARACTER_WEIGHT = 1;
const NGRAM_SIZES = [3, 4, 5] as const;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
/** FNV states after each feature kind's prefix, which every feature of that kind starts with. */
const TERM_PREFIX = fnvContinue(FNV_OFFSET, 'w:');
const BIGRAM_PREFIX = fnvContinue(FNV_OFFSET, 'b:');
const GRAM_PREFIX = fnvContinue(FNV_OFFSET, 'c:');

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
 * Returns a function from text to its hashed vector. What a word contributes apart from its neighbours is
 * computed once per distinct word and kept in typed arrays (word frequencies follow Zipf's law, so most words are
 * already there), and words are looked up by their character codes in place, so a text costs neither a substring
 * nor a Map lookup per word. Features are added in the same order, with the same arithmetic, as the plain
 * definition, so the vectors are the same to the bit: floating-point sums depend on their order.
 */
export function createHashedVectorizer(dimensions: number): (text: string) => Float32Array {
  const features = new WordFeatures();
  const weights = new FeatureWeights();
  let hasPrevious = false;
  let previousBigramPrefix = 0;
  const addWord = (source: string, start: number, end: number): void => {
    const word = features.idOf(source, start, end);
    const gramCount = features.gramCounts[word]!;
    if (gramCount === STOP_WORD) {
      hasPrevious = false;
      return;
    }
    weights.add(features.termHashes[word]!, WORD_WEIGHT);
    if (hasPrevious) weights.add(features.continueOverTerm(previousBigramPrefix, word), BIGRAM_WEIGHT);
    hasPrevious = true;
    previousBigramPrefix = features.bigramPrefixes[word]!;
    const grams = features.grams;
    const gramWeight = features.gramWeights[word]!;
    const gramStart = features.gramStarts[word]!;
    for (let index = gramStart; index < gramStart + gramCount; index++)
      weights.add(grams[index]!, gramWeight);
  };
  return (text) => {
    hasPrevious = false;
    forEachWord(text, addWord);
    const vector = new Float32Array(dimensions);
    weights.drainInto(vector);
    return normalize(vector);
  };
}

/** Marks a stop word in `gramCounts`: it contributes nothing and breaks the bigram chain. */
const STOP_WORD = -1;
/** Distinct words remembered, and their characters; past either the table starts over, so memory stays bounded. */
const WORD_CACHE_SIZE = 200_000;
const WORD_CACHE_CHARACTERS = 2_000_000;

/** Per distinct word, by id, what it contributes apart from its neighbours. */
class WordFeatures {
  termHashes = new Uint32Array(1024);
  /** FNV state after `b:<term> `: a bigram's hash continues from it over the next term. */
  bigramPrefixes = new Uint32Array(1024);
  gramStarts = new Int32Array(1024);
  gramCounts = new Int32Array(1024);
  gramWeights = new Float64Array(1024);
  grams = new Uint32Array(1 << 14);
  /** Each word's id, by its spelling in the text: `Word` and `word` are two entries with the same features. */
  private readonly words = new SpanTable(WORD_CACHE_SIZE, WORD_CACHE_CHARACTERS);
  private gramsUsed = 0;
  private termStarts = new Int32Array(1024);
  private termLengths = new Int32Array(1024);
  private termCharacters = new Uint16Array(1 << 13);
  private termCharactersUsed = 0;

  /** The id of the word `source[start, end)` with ASCII letters lower-cased. */
  idOf(source: string, start: number, end: number): number {
    const id = this.words.find(source, start, end);
    return id >= 0 ? id : this.add(source, start, end);
  }

  /** FNV continued from `state` over the word's term: the second half of a bigram's hash. */
  continueOverTerm(state: number, id: number): number {
    let hash = state;
    const end = this.termStarts[id]! + this.termLengths[id]!;
    for (let index = this.termStarts[id]!; index < end; index++)
      hash = fnvStep(hash, this.termCharacters[index]!);
    return hash;
  }

  private add(source: string, start: number, end: number): number {
    if (!this.words.hasRoomFor(end - start)) this.clear();
    // Ids are dense, in the order words were added since the table last started over.
    const id = this.words.size;
    this.words.add(source, start, end, id);
    this.reserve(id);
    const word = foldAsciiCase(source.slice(start, end));
    if (isStopWord(word)) {
      this.gramCounts[id] = STOP_WORD;
      return id;
    }
    const term = stem(word);
    this.storeTerm(id, term);
    this.termHashes[id] = fnvContinue(TERM_PREFIX, term);
    this.bigramPrefixes[id] = fnvStep(fnvContinue(BIGRAM_PREFIX, term), 0x20);
    const gramCount = this.hashGrams(`<${word}>`);
    this.gramStarts[id] = this.gramsUsed;
    this.gramCounts[id] = gramCount;
    this.gramWeights[id] = CHARACTER_WEIGHT / Math.sqrt(gramCount);
    this.gramsUsed += gramCount;
    return id;
  }

  private storeTerm(id: number, term: string): void {
    if (this.termCharactersUsed + term.length > this.termCharacters.length)
      this.termCharacters = grown(this.termCharacters, this.termCharactersUsed + term.length);
    this.termStarts[id] = this.termCharactersUsed;
    this.termLengths[id] = term.length;
    for (let index = 0; index < term.length; index++)
      this.termCharacters[this.termCharactersUsed++] = term.charCodeAt(index);
  }

  /** Writes the n-gram hashes of `padded` after the grams in use, and returns how many there are. */
  private hashGrams(padded: string): number {
    let gramCount = 0;
    for (const size of NGRAM_SIZES) gramCount += Math.max(0, padded.length - size + 1);
    if (this.gramsUsed + gramCount > this.grams.length)
      this.grams = grown(this.grams, this.gramsUsed + gramCount);
    const smallest = NGRAM_SIZES[0];
    const largest = NGRAM_SIZES[NGRAM_SIZES.length - 1]!;
    let count = this.gramsUsed;
    for (let start = 0; start + smallest <= padded.length; start++) {
      let hash = GRAM_PREFIX;
      for (let size = 1; size <= largest && start + size <= padded.length; size++) {
        hash = fnvStep(hash, padded.charCodeAt(start + size - 1));
        if (size >= smallest) this.grams[count++] = hash;
      }
    }
    return gramCount;
  }

  private clear(): void {
    this.words.clear();
    this.gramsUsed = 0;
    this.termCharactersUsed = 0;
  }

  private reserve(id: number): void {
    if (id < this.termHashes.length) return;
    const size = id + 1;
    this.termHashes = grown(this.termHashes, size);
    this.bigramPrefixes = grown(this.bigramPrefixes, size);
    this.gramStarts = grown(this.gramStarts, size);
    this.gramCounts = grown(this.gramCounts, size);
    this.gramWeights = grown(this.gramWeights, size);
    this.termStarts = grown(this.termStarts, size);
    this.termLengths = grown(this.termLengths, size);
  }
}

function foldAsciiCase(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/**
 * Total weight per feature hash: an open-addressing table in typed arrays, reused from text to text, where a
 * Map would allocate per entry. It grows when more than half full, and keeps the order in which features first
 * came, the order the plain definition adds them to the vector in.
 */
class FeatureWeights {
  private keys = new Uint32Array(1 << 12);
  private values = new Float64Array(1 << 12);
  private used = new Uint8Array(1 << 12);
  private order = new Int32Array(1 << 12);
  private count = 0;

  add(hash: number, weight: number): void {
    const mask = this.keys.length - 1;
    let slot = (Math.imul(hash, 0x9e3779b1) >>> 0) & mask;
    while (this.used[slot] === 1) {
      if (this.keys[slot] === hash) {
        this.values[slot]! += weight;
        return;
      }
      slot = (slot + 1) & mask;
    }
    this.used[slot] = 1;
    this.keys[slot] = hash;
    this.values[slot] = weight;
    this.order[this.count++] = slot;
    if (this.count * 2 > this.keys.length) this.grow();
  }

  /**
   * Adds each feature's sublinear weight, signed by the hash's top bit, to the dimension the rest of the hash
   * picks, then leaves the table empty.
   */
  drainInto(vector: Float32Array): void {
    const dimensions = vector.length;
    // The same dimension as `%` gives for a power of two, without a division per feature.
    const mask = (dimensions & (dimensions - 1)) === 0 ? dimensions - 1 : -1;
    for (let index = 0; index < this.count; index++) {
      const slot = this.order[index]!;
      const hash = this.keys[slot]!;
      const magnitude = hash & 0x7fffffff;
      const dimension = mask >= 0 ? magnitude & mask : magnitude % dimensions;
      vector[dimension]! += (hash & 0x80000000 ? -1 : 1) * sublinear(this.values[slot]!);
      this.used[slot] = 0;
    }
    this.count = 0;
  }

  private grow(): void {
    const keys = this.keys;
    const values = this.values;
    const order = this.order.subarray(0, this.count);
    const size = keys.length * 2;
    this.keys = new Uint32Array(size);
    this.values = new Float64Array(size);
    this.used = new Uint8Array(size);
    this.order = new Int32Array(size);
    this.count = 0;
    for (const slot of order) this.add(keys[slot]!, values[slot]!);
  }
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
  return Math.imul(state ^ code, FNV_PRIME) >>> 0;
}
