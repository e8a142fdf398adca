import OpenAI from 'openai';
import { SourceError } from '../source-error.ts';
import { countTokens } from '../text/token-count.ts';
import { type Embedder, type EmbedOptions, normalize } from './embedder.ts';

export interface ProviderEmbedderOptions {
  baseUrl?: string;
  model?: string;
  apiKey?: string;
  /** Retries on 429, 5xx and connection errors, with the SDK's exponential backoff and Retry-After. */
  maxRetries?: number;
}

export const DEFAULT_EMBEDDING_MODEL = 'text-embedding-3-small';
const KNOWN_DIMENSIONS: Record<string, number> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};
/** OpenAI's limits are 8,192 tokens per input, 300,000 per request and 2,048 inputs; kept below for tokenizer drift. */
const MAX_INPUT_TOKENS = 8000;
const MAX_REQUEST_TOKENS = 250_000;
const MAX_REQUEST_INPUTS = 2048;

export class EmbeddingProviderError extends SourceError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EmbeddingProviderError';
  }
}

/** Embeds with any OpenAI-compatible `/embeddings` endpoint: OpenAI, Ollama, vLLM, llama.cpp. */
export async function createProviderEmbedder(options: ProviderEmbedderOptions = {}): Promise<Embedder> {
  const model = options.model ?? DEFAULT_EMBEDDING_MODEL;
  const client = new OpenAI({
    apiKey: options.apiKey ?? 'none',
    baseURL: options.baseUrl ?? 'https://api.openai.com/v1',
    maxRetries: options.maxRetries ?? 4,
  });
  const describe = `embedding model "${model}" at ${client.baseURL}`;
  let dimensions = KNOWN_DIMENSIONS[model];
  const embedBatch = async (inputs: string[], signal: AbortSignal | undefined): Promise<Float32Array[]> => {
    try {
      const response = await client.embeddings.create(
        { model, input: inputs, encoding_format: 'float' },
        signal ? { signal } : {},
      );
      const vectors = [...response.data].sort((left, right) => left.index - right.index);
      if (vectors.length !== inputs.length) {
        throw new EmbeddingProviderError(
          `${describe} returned ${vectors.length} vectors for ${inputs.length} texts`,
        );
      }
      const wrongSize = vectors.find(
        (item) => dimensions !== undefined && item.embedding.length !== dimensions,
      );
      if (wrongSize) {
        throw new EmbeddingProviderError(
          `${describe} returned vectors of ${wrongSize.embedding.length} dimensions, expected ${dimensions}`,
        );
      }
      return vectors.map((item) => normalize(Float32Array.from(item.embedding)));
    } catch (error) {
      if (error instanceof EmbeddingProviderError || signal?.aborted) throw error;
      throw new EmbeddingProviderError(`${describe} failed: ${(error as Error).message}`, { cause: error });
    }
  };
  dimensions ??= (await embedBatch(['dimension probe'], undefined))[0]!.length;
  return {
    id: `provider-${slug(model)}-${dimensions}`,
    dimensions,
    embed: async (texts: string[], embedOptions?: EmbedOptions) => {
      const vectors: Float32Array[] = [];
      for (const batch of batches(texts.map(truncateInput))) {
        vectors.push(...(await embedBatch(batch, embedOptions?.signal)));
      }
      return vectors;
    },
  };
}

/** Empty inputs are rejected by OpenAI; over-long ones are cut rather than failing a whole document. */
function truncateInput(text: string): string {
  if (text.trim() === '') return ' ';
  if (text.length < MAX_INPUT_TOKENS) return text;
  let cut = text;
  while (countTokens(cut) > MAX_INPUT_TOKENS) cut = cut.slice(0, Math.floor(cut.length * 0.9));
  return cut;
}

function* batches(texts: string[]): Generator<string[]> {
  let batch: string[] = [];
  let tokens = 0;
  for (const text of texts) {
    const textTokens = text.length < 4000 ? Math.ceil(text.length / 2) : countTokens(text);
    if (
      batch.length > 0 &&
      (tokens + textTokens > MAX_REQUEST_TOKENS || batch.length >= MAX_REQUEST_INPUTS)
    ) {
      yield batch;
      batch = [];
      tokens = 0;
    }
    batch.push(text);
    tokens += textTokens;
  }
  if (batch.length > 0) yield batch;
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}
