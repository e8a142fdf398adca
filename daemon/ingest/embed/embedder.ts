export type EmbeddingKind = 'document' | 'query';

export interface EmbedOptions {
  kind?: EmbeddingKind;
  signal?: AbortSignal;
}

/** Turns texts into vectors of one fixed space; `id` names that space, so vectors of two ids never mix. */
export interface Embedder {
  readonly id: string;
  readonly dimensions: number;
  embed(texts: string[], options?: EmbedOptions): Promise<Float32Array[]>;
}

/** Scales a vector to unit length in place, so a dot product is a cosine similarity. */
export function normalize(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const value of vector) sum += value * value;
  if (sum === 0) return vector;
  const scale = 1 / Math.sqrt(sum);
  for (let index = 0; index < vector.length; index++) vector[index]! *= scale;
  return vector;
}
