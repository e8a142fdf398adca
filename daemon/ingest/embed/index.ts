import type { Embedder } from './embedder.ts';
import { createHashedEmbedder } from './hashed.ts';
import { createProviderEmbedder } from './openai.ts';

export type { Embedder, EmbedderRecipe, EmbeddingKind, EmbedOptions } from './embedder.ts';
export { EmbeddingProviderError } from './openai.ts';

export interface EmbedderConfig {
  /** An OpenAI-compatible embeddings endpoint; without one, the built-in offline embedder is used. */
  provider?: { baseUrl?: string; model?: string; apiKey?: string };
  /** Where derived model files are kept between starts. */
  cacheDir: string;
}

export async function createEmbedder(config: EmbedderConfig): Promise<Embedder> {
  if (config.provider) return createProviderEmbedder(config.provider);
  return createHashedEmbedder();
}
