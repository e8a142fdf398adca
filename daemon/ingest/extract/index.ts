import { stat } from 'node:fs/promises';
import type { EmbedderRecipe } from '../../embed/embedder.ts';
import type { ChunkedDocument } from '../chunk-and-embed.ts';
import type { ExtractedDocument } from '../types.ts';
import { ExtractionError } from './errors.ts';
import { DEFAULT_RECOGNITION, type RecognitionOptions, type RecognitionProgress } from './pdf-ocr.ts';
import { createExtractionPool } from './pool.ts';
import type { WorkerJob, WorkerResult } from './worker.ts';

export { ExtractionError, type ExtractionFailure } from './errors.ts';
export { type HtmlPage, htmlToPage } from './html.ts';
export { normalizeText } from './normalize.ts';
export { DEFAULT_RECOGNITION, type RecognitionOptions, type RecognitionProgress } from './pdf-ocr.ts';

export interface ExtractOptions {
  /** Default 60 s; the worker is terminated after it. */
  timeoutMs?: number;
  /** Heap limit of the parsing worker, default 512 MB. */
  maxMemoryMb?: number;
  /** Files larger than this are refused before parsing, default 100 MiB. */
  maxBytes?: number;
  /** How scanned PDF pages are recognised, default `DEFAULT_RECOGNITION`; `false` turns recognition off. */
  recognition?: RecognitionOptions | false | undefined;
  /** News of a file's scanned pages as they are recognised. */
  onProgress?: ((progress: RecognitionProgress) => void) | undefined;
  signal?: AbortSignal;
}

export interface PrepareOptions extends ExtractOptions {
  /** The embedder to run in the worker after chunking; without one, the chunks come back without vectors. */
  embedder?: EmbedderRecipe | undefined;
  /** Hashes of texts whose vectors the caller has already (chunk-and-embed.ts, contextHash). */
  known?: string[] | undefined;
}

/** A file on disk to read, by the name it was uploaded under, and its size when known (which saves a stat). */
export interface StoredFile {
  path: string;
  name: string;
  bytes?: number;
}

export interface Extractor {
  /** Reads a file from disk and returns its pages. Runs the parser in a worker thread. */
  extractFile(path: string, fileName: string, options?: ExtractOptions): Promise<ExtractedDocument>;
  /** Same for bytes already in memory (used for URLs that point at files). */
  extractBuffer(bytes: Uint8Array, fileName: string, options?: ExtractOptions): Promise<ExtractedDocument>;
  /** Reads, parses, chunks and (given an embedder) embeds a file in one worker job. */
  prepareFile(file: StoredFile, options?: PrepareOptions): Promise<ChunkedDocument>;
  /** Chunks and embeds a document made on this thread (text, web pages) in a worker job. */
  prepareDocument(
    document: ExtractedDocument,
    name: string,
    options?: PrepareOptions,
  ): Promise<ChunkedDocument>;
  close(): Promise<void>;
}

const DEFAULTS = { timeoutMs: 60_000, maxMemoryMb: 512, maxBytes: 100 * 1024 * 1024 } as const;
const POOL_SIZE = 2;

/**
 * The daemon makes one at start and closes it when it stops; tests make their own. Workers start with the first
 * job, and free ones are unreferenced, so an extractor never holds the process open.
 */
export function createExtractor(poolSize = POOL_SIZE): Extractor {
  const pool = createExtractionPool(poolSize);

  function run<Job extends WorkerJob>(job: Job, options: ExtractOptions): Promise<WorkerResult<Job>> {
    const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
    const recognition = options.recognition ?? DEFAULT_RECOGNITION;
    return pool.run(job, {
      timeoutMs,
      // Between two recognised pages: one page's recognition, and rendering it within the reading limit.
      pageTimeoutMs: recognition ? recognition.pageTimeoutMs + timeoutMs : undefined,
      maxMemoryMb: options.maxMemoryMb ?? DEFAULTS.maxMemoryMb,
      signal: options.signal,
      onProgress: options.onProgress,
    });
  }

  return {
    async extractFile(path, fileName, options = {}) {
      checkSize(await sizeOf(path, fileName), fileName, options);
      return run({ kind: 'extract', fileName, source: { path }, recognition: options.recognition }, options);
    },
    async extractBuffer(bytes, fileName, options = {}) {
      checkSize(bytes.length, fileName, options);
      return run({ kind: 'extract', fileName, source: { bytes }, recognition: options.recognition }, options);
    },
    async prepareFile({ path, name, bytes }, options = {}) {
      checkSize(bytes ?? (await sizeOf(path, name)), name, options);
      return run(
        {
          kind: 'chunk',
          fileName: name,
          source: { path },
          embedder: options.embedder,
          known: options.known,
          recognition: options.recognition,
        },
        options,
      );
    },
    prepareDocument(document, name, options = {}) {
      return run(
        {
          kind: 'chunk',
          fileName: name,
          source: { document },
          embedder: options.embedder,
          known: options.known,
        },
        options,
      );
    },
    close: () => pool.close(),
  };
}

async function sizeOf(path: string, fileName: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch (error) {
    throw ExtractionError.cannotRead(fileName, 'unreadable', 'the stored file is missing', error);
  }
}

/** Files larger than the limit are refused before a worker spends time and memory on them. */
function checkSize(size: number, fileName: string, options: ExtractOptions): void {
  const maxBytes = options.maxBytes ?? DEFAULTS.maxBytes;
  if (size > maxBytes) {
    throw ExtractionError.cannotRead(
      fileName,
      'too_large',
      `the file is ${formatMegabytes(size)}, more than the limit of ${formatMegabytes(maxBytes)}`,
    );
  }
}

function formatMegabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
