import { readFile } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import type { ChunkedDocument } from '../chunk-and-embed.ts';
import type { Embedder, EmbedderRecipe } from '../embed/embedder.ts';
import { embedderFromRecipe } from '../embed/recipe.ts';
import type { ExtractedDocument } from '../types.ts';
import { ExtractionError, type ExtractionFailure } from './errors.ts';
import { parseDocument } from './parse.ts';

export type WorkerSource = { path: string } | { bytes: Uint8Array };
/**
 * `extract` returns the document. `chunk` goes on in the same job to cut it into chunks, and embeds them too
 * when given an embedder's recipe; its document may also come ready-made from the main thread.
 */
export type WorkerJob =
  | { kind: 'extract'; fileName: string; source: WorkerSource }
  | {
      kind: 'chunk';
      fileName: string;
      source: WorkerSource | { document: ExtractedDocument };
      embedder?: EmbedderRecipe | undefined;
    };
export type WorkerResult<Job extends WorkerJob> = Job extends { kind: 'extract' }
  ? ExtractedDocument
  : ChunkedDocument;
export type WorkerRequest = WorkerJob & { id: number };
export type WorkerResponse =
  | { id: number; ok: true; result: ExtractedDocument | ChunkedDocument }
  | { id: number; ok: false; reason: ExtractionFailure; message: string }
  /** Our own chunking or embedding code failed: a bug to log, not something wrong with the document. */
  | { id: number; ok: false; internal: string };

/** Embedders rebuilt from recipes, kept so their caches stay warm from job to job. */
const embedders = new Map<string, Embedder>();

parentPort?.on('message', async (request: WorkerRequest) => {
  const response = await answer(request);
  const vectors = response.ok && 'vectors' in response.result ? response.result.vectors : undefined;
  parentPort?.postMessage(response, vectors ? [vectors.buffer] : []);
});

async function answer(request: WorkerRequest): Promise<WorkerResponse> {
  const { id, fileName } = request;
  let document: ExtractedDocument;
  try {
    document =
      'document' in request.source ? request.source.document : await extract(request.source, fileName);
  } catch (error) {
    const failure = error instanceof ExtractionError ? error : unexpected(error, fileName);
    return { id, ok: false, reason: failure.reason, message: failure.message };
  }
  if (request.kind === 'extract') return { id, ok: true, result: document };
  try {
    return { id, ok: true, result: await chunk(document, request.embedder) };
  } catch (error) {
    return {
      id,
      ok: false,
      internal: error instanceof Error ? (error.stack ?? error.message) : String(error),
    };
  }
}

async function extract(source: WorkerSource, fileName: string): Promise<ExtractedDocument> {
  const bytes = 'bytes' in source ? source.bytes : await readStoredFile(source.path, fileName);
  return parseDocument(bytes, fileName);
}

async function chunk(
  document: ExtractedDocument,
  recipe: EmbedderRecipe | undefined,
): Promise<ChunkedDocument> {
  // Loaded on the first chunking job: the tokenizer's tables take most of a second and tens of MB to load,
  // which workers that only extract (files behind URLs, tests with tight heap limits) should not pay.
  const { chunkAndEmbed } = await import('../chunk-and-embed.ts');
  return chunkAndEmbed(document, recipe && embedderFor(recipe));
}

function embedderFor(recipe: EmbedderRecipe): Embedder {
  const key = JSON.stringify(recipe);
  let embedder = embedders.get(key);
  if (!embedder) {
    embedder = embedderFromRecipe(recipe);
    embedders.set(key, embedder);
  }
  return embedder;
}

function unexpected(error: unknown, fileName: string): ExtractionError {
  // Parsers recurse over the document's structure; a hostile file nests deeper than the stack allows.
  if (error instanceof RangeError && /call stack/i.test(error.message)) {
    return ExtractionError.cannotRead(
      fileName,
      'corrupt',
      'its structure is nested too deeply to be read',
      error,
    );
  }
  return ExtractionError.cannotRead(
    fileName,
    'unreadable',
    `the reader failed unexpectedly (${describe(error)})`,
  );
}

async function readStoredFile(path: string, fileName: string): Promise<Uint8Array> {
  try {
    return await readFile(path);
  } catch (error) {
    throw ExtractionError.cannotRead(
      fileName,
      'unreadable',
      `the stored file cannot be opened (${describe(error)})`,
    );
  }
}

function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]?.replace(/\.$/, '') ?? '';
}
