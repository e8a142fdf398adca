export type EmbeddingKind = 'document' | 'query';

export interface EmbedOptions {
  kind?: EmbeddingKind;
  signal?: AbortSignal;
}

/**
 * A plain value, so it can be posted to a worker thread, from which `embedderFromRecipe` builds an embedder with
 * the same id and the same vectors.
 */
export type EmbedderRecipe = { kind: 'hashed'; dimensions: number };

/** Turns texts into vectors of one fixed space; `id` names that space, so vectors of two ids never mix. */
export interface Embedder {
  readonly id: string;
  readonly dimensions: number;
  /**
   * Present when the embedder is pure computation that a worker thread can rebuild and run next to the
   * chunker; absent for remote embedders, which are called from the main thread.
   */
  readonly recipe?: EmbedderRecipe;
  embed(texts: string[], options?: EmbedOptions): Promise<Float32Array[]>;
}

/** Scales a vector to unit length in place, so a dot product is a cosine similarity. */
export function normalize(vector: Float32Array): Float32Array {
  let sum = 0;
  // Indexed, not for-of: iterating a Float32Array costs several times more, on every vector embedded.
  for (let index = 0; index < vector.length; index++) sum += vector[index]! * vector[index]!;
  if (sum === 0) return vector;
  const scale = 1 / Math.sqrt(sum);
  for (let index = 0; index < vector.length; index++) vector[index]! *= scale;
  return vector;
}
