import type { Embedder } from './embedder.ts';
import { createHashedEmbedder } from './hashed.ts';

export type { Embedder, EmbedderRecipe, EmbeddingKind, EmbedOptions } from './embedder.ts';

export interface EmbedderConfig {
  /** An OpenAI-compatible embeddings endpoint; without one, the built-in offline embedder is used. */
  provider?: { baseUrl?: string; model?: string; apiKey?: string };
  /** Where derived model files are kept between starts. */
  cacheDir: string;
}

export async function createEmbedder(config: EmbedderConfig): Promise<Embedder> {
  if (config.provider) {
    // Loaded only for a provider: the openai SDK is 7 MB of heap and 0.3 s of start-up.
    const { createProviderEmbedder } = await import('./openai.ts');
    return createProviderEmbedder(config.provider);
  }
  return createHashedEmbedder();
}
