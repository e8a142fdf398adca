import { type Embedder, type EmbedOptions, normalize } from '../daemon/embed/embedder.ts';
import { createHashedVectorizer } from '../daemon/embed/hashed.ts';
import { WORD_VECTOR_DIMENSIONS, type WordVectors } from '../daemon/text/word-vector-table.ts';
import { wordVectors } from '../daemon/text/word-vectors.ts';
import { isStopWord, words } from '../daemon/text/words.ts';

// The GloVe embedder the retrieval benchmark compares with (bench/retrieval-embedders.ts); not used by the daemon,
// whose reranker reads the same word vectors word by word (daemon/text/meaning-match.ts). v2: unit vectors of the
// 100,000 most frequent words (v1 read the package's raw vectors of all 341,479).

/** SIF's smoothing constant: words more frequent than about this share of text weigh little. */
const SIF_SMOOTHING = 1e-3;

/**
 * Smooth inverse frequency weighting (Arora et al. 2017): the vocabulary is ordered by frequency, so a word's
 * probability is estimated from its rank by Zipf's law.
 */
export function wordVectorAverage(vectors: WordVectors, text: string): Float32Array {
  const sum = new Float32Array(WORD_VECTOR_DIMENSIONS);
  const zipfNormalizer = Math.log(1.78 * vectors.rows.size);
  for (const word of words(text)) {
    if (isStopWord(word)) continue;
    const position = vectors.rows.get(word);
    if (position === undefined) continue;
    const probability = 1 / ((position + 1) * zipfNormalizer);
    const weight = (SIF_SMOOTHING / (SIF_SMOOTHING + probability)) * vectors.scales[position]!;
    const offset = position * WORD_VECTOR_DIMENSIONS;
    for (let dimension = 0; dimension < WORD_VECTOR_DIMENSIONS; dimension++) {
      sum[dimension]! += weight * vectors.values[offset + dimension]!;
    }
  }
  return normalize(sum);
}

export function createGloveEmbedder(): Embedder {
  const vectors = wordVectors();
  return {
    id: 'offline-glove-100-v2',
    dimensions: WORD_VECTOR_DIMENSIONS,
    embed: async (texts: string[], options?: EmbedOptions) => {
      options?.signal?.throwIfAborted();
      return texts.map((text) => wordVectorAverage(vectors, text));
    },
  };
}

/** Hashed features and GloVe side by side; `gloveShare` is the share of cosine similarity GloVe contributes. */
export function createCombinedEmbedder(gloveShare = 0.3): Embedder {
  const vectors = wordVectors();
  const hashedDimensions = 1024;
  const hashedScale = Math.sqrt(1 - gloveShare);
  const gloveScale = Math.sqrt(gloveShare);
  const hashedVectorOf = createHashedVectorizer(hashedDimensions);
  return {
    id: `offline-hash-glove-${hashedDimensions + WORD_VECTOR_DIMENSIONS}-v2`,
    dimensions: hashedDimensions + WORD_VECTOR_DIMENSIONS,
    embed: async (texts: string[], options?: EmbedOptions) => {
      options?.signal?.throwIfAborted();
      return texts.map((text) => {
        const combined = new Float32Array(hashedDimensions + WORD_VECTOR_DIMENSIONS);
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
