import { chunkContextText } from './chunk.ts';
import { type ChunkedDocument, unpackVectors } from './chunk-and-embed.ts';
import type { Embedder } from './embed/index.ts';
import {
  prepareDocument,
  prepareFile,
  type RecognitionOptions,
  type RecognitionProgress,
  type StoredFile,
} from './extract/index.ts';
import { type DocumentInput, type LoadOptions, loadDocument } from './load-document.ts';
import type { Chunk } from './types.ts';

/** Chunks per request to an embedder that runs on this thread (a remote one). */
const EMBED_BATCH = 64;

/** What a source's content points at, resolved by the caller (a stored file's path, or web addresses). */
export type SourceInput = DocumentInput | ({ kind: 'file' } & StoredFile);

export interface PrepareSourceOptions extends LoadOptions {
  embedder: Embedder;
  /** Time limit of the worker job that reads, chunks and embeds. */
  extractTimeoutMs: number;
  /** The source's name, for messages about a document made on this thread. */
  name: string;
  /** How scanned PDF pages are recognised; `false` turns recognition off. */
  recognition?: RecognitionOptions | false | undefined;
  /** News of a file's scanned pages as they are recognised. */
  onProgress?: ((progress: RecognitionProgress) => void) | undefined;
}

/** A source's chunks with their vectors, ready to store. */
export interface PreparedSource {
  chunks: Chunk[];
  vectors: Float32Array[];
  pages: number;
  characters: number;
  /** Pages that could not be read although the source as a whole could, for the user to see. */
  warnings: string[];
}

/**
 * Turns a source into chunks and vectors. The CPU work (parsing, chunking, embedding with an embedder that has
 * a recipe) runs in one worker job, so the main thread only fetches from the web and calls remote embedders.
 */
export async function prepareSource(
  input: SourceInput,
  options: PrepareSourceOptions,
): Promise<PreparedSource> {
  const job = {
    timeoutMs: options.extractTimeoutMs,
    signal: options.signal,
    embedder: options.embedder.recipe,
    recognition: options.recognition,
    onProgress: options.onProgress,
  };
  if (input.kind === 'file') {
    return withVectors(await prepareFile(input, job), [], options);
  }
  const loaded = await loadDocument(input, options);
  return withVectors(await prepareDocument(loaded.document, options.name, job), loaded.warnings, options);
}

async function withVectors(
  chunked: ChunkedDocument,
  warnings: string[],
  { embedder, signal }: PrepareSourceOptions,
): Promise<PreparedSource> {
  const { chunks, pages, characters } = chunked;
  const vectors = chunked.vectors
    ? unpackVectors(chunked.vectors, chunks.length, embedder.dimensions)
    : await embedHere(chunks, embedder, signal);
  return { chunks, vectors, pages, characters, warnings: [...warnings, ...(chunked.warnings ?? [])] };
}

async function embedHere(chunks: Chunk[], embedder: Embedder, signal: AbortSignal): Promise<Float32Array[]> {
  const vectors: Float32Array[] = [];
  for (let start = 0; start < chunks.length; start += EMBED_BATCH) {
    signal.throwIfAborted();
    const batch = chunks.slice(start, start + EMBED_BATCH).map(chunkContextText);
    vectors.push(...(await embedder.embed(batch, { kind: 'document', signal })));
  }
  return vectors;
}
