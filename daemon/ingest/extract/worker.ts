import { readFile } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import type { Embedder, EmbedderRecipe } from '../../embed/embedder.ts';
import { embedderFromRecipe } from '../../embed/recipe.ts';
import type { ChunkedDocument } from '../chunk-and-embed.ts';
import type { ExtractedDocument } from '../types.ts';
import { ExtractionError, type ExtractionFailure } from './errors.ts';
import { parseDocument } from './parse.ts';
import type { RecognitionOptions, RecognitionProgress } from './pdf-ocr.ts';

export type WorkerSource = { path: string } | { bytes: Uint8Array };
/**
 * `extract` returns the document. `chunk` goes on in the same job to cut it into chunks, and embeds them too
 * when given an embedder's recipe; its document may also come ready-made from the main thread. `recognition`
 * says how to read scanned PDF pages (the default when absent, none when false).
 */
export type WorkerJob =
  | {
      kind: 'extract';
      fileName: string;
      source: WorkerSource;
      recognition?: RecognitionOptions | false | undefined;
    }
  | {
      kind: 'chunk';
      fileName: string;
      source: WorkerSource | { document: ExtractedDocument };
      embedder?: EmbedderRecipe | undefined;
      /** Hashes of texts whose vectors the caller has (contextHash): those chunks are not embedded. */
      known?: string[] | undefined;
      recognition?: RecognitionOptions | false | undefined;
    };
export type WorkerResult<Job extends WorkerJob> = Job extends { kind: 'extract' }
  ? ExtractedDocument
  : ChunkedDocument;
/** One job, or several documents made on the main thread, answered in one message (see pool.ts). */
export interface WorkerRequest {
  jobs: WorkerJob[];
}
/**
 * The answer to a request, or news of a file's job while it runs (a file's job is always sent alone): how many
 * of its scanned pages are recognised, which also tells the pool the worker is not stuck.
 */
export type WorkerResponse =
  | {
      /** One per job, in the request's order. */
      outcomes: JobOutcome[];
    }
  | { progress: RecognitionProgress };
export type JobOutcome =
  | { ok: true; result: ExtractedDocument | ChunkedDocument }
  | { ok: false; reason: ExtractionFailure; message: string }
  /** Our own chunking or embedding code failed: a bug to log, not something wrong with the document. */
  | { ok: false; internal: string };

/** Embedders rebuilt from recipes, kept so their caches stay warm from job to job. */
const embedders = new Map<string, Embedder>();

parentPort?.on('message', async (request: WorkerRequest) => {
  const outcomes: JobOutcome[] = [];
  for (const job of request.jobs) outcomes.push(await answer(job));
  const vectors = outcomes.flatMap((outcome) =>
    outcome.ok && 'vectors' in outcome.result && outcome.result.vectors
      ? [outcome.result.vectors.buffer]
      : [],
  );
  const response: WorkerResponse = { outcomes };
  parentPort?.postMessage(response, vectors);
});

async function answer(job: WorkerJob): Promise<JobOutcome> {
  let document: ExtractedDocument;
  try {
    document =
      'document' in job.source
        ? job.source.document
        : await extract(job.source, job.fileName, job.recognition);
  } catch (error) {
    const failure = error instanceof ExtractionError ? error : unexpected(error, job.fileName);
    return { ok: false, reason: failure.reason, message: failure.message };
  }
  if (job.kind === 'extract') return { ok: true, result: document };
  try {
    return { ok: true, result: await chunk(document, job.embedder, job.known) };
  } catch (error) {
    return { ok: false, internal: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
}

async function extract(
  source: WorkerSource,
  fileName: string,
  recognition: RecognitionOptions | false | undefined,
): Promise<ExtractedDocument> {
  const bytes = 'bytes' in source ? source.bytes : await readStoredFile(source.path, fileName);
  return parseDocument(bytes, fileName, {
    recognition,
    onProgress: (progress) => {
      const news: WorkerResponse = { progress };
      parentPort?.postMessage(news);
    },
  });
}

/**
 * Loaded on the first chunking job: the tokenizer's tables take most of a second and tens of MB to load, which
 * workers that only extract (files behind URLs, tests with tight heap limits) should not pay. Kept, as each
 * `import()` resolves the module again (a few percent of a bulk ingestion).
 */
let chunking: Promise<typeof import('../chunk-and-embed.ts')> | undefined;

async function chunk(
  document: ExtractedDocument,
  recipe: EmbedderRecipe | undefined,
  known: string[] | undefined,
): Promise<ChunkedDocument> {
  chunking ??= import('../chunk-and-embed.ts');
  const { chunkAndEmbed } = await chunking;
  return chunkAndEmbed(document, recipe && embedderFor(recipe), known);
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
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw ExtractionError.cannotRead(
      fileName,
      'unreadable',
      missing ? 'the stored file is missing' : `the stored file cannot be opened (${describe(error)})`,
    );
  }
}

function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]?.replace(/\.$/, '') ?? '';
}
