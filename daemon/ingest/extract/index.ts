import { stat } from 'node:fs/promises';
import type { ExtractedDocument } from '../types.ts';
import { ExtractionError } from './errors.ts';
import { createWorkerPool, type WorkerPool } from './pool.ts';
import type { WorkerSource } from './worker.ts';

export { EXTRACTION_FAILURES, ExtractionError, type ExtractionFailure } from './errors.ts';
export { type HtmlPage, htmlToPage } from './html.ts';
export { normalizeText } from './normalize.ts';

export interface ExtractOptions {
  /** Default 60 s; the worker is terminated after it. */
  timeoutMs?: number;
  /** Heap limit of the parsing worker, default 512 MB. */
  maxMemoryMb?: number;
  /** Files larger than this are refused before parsing, default 100 MiB. */
  maxBytes?: number;
  signal?: AbortSignal;
}

export interface Extractor {
  /** Reads a file from disk and returns its pages. Runs the parser in a worker thread. */
  extractFile(path: string, fileName: string, options?: ExtractOptions): Promise<ExtractedDocument>;
  /** Same for bytes already in memory (used for URLs that point at files). */
  extractBuffer(bytes: Uint8Array, fileName: string, options?: ExtractOptions): Promise<ExtractedDocument>;
  close(): Promise<void>;
}

const DEFAULTS = { timeoutMs: 60_000, maxMemoryMb: 512, maxBytes: 100 * 1024 * 1024 } as const;
const POOL_SIZE = 2;

export function createExtractor(poolSize = POOL_SIZE): Extractor {
  let pool: WorkerPool | undefined;

  async function extract(source: WorkerSource, size: number, fileName: string, options: ExtractOptions) {
    const maxBytes = options.maxBytes ?? DEFAULTS.maxBytes;
    if (size > maxBytes) {
      throw ExtractionError.cannotRead(
        fileName,
        'too_large',
        `the file is ${formatMegabytes(size)}, more than the limit of ${formatMegabytes(maxBytes)}`,
      );
    }
    pool ??= createWorkerPool(poolSize);
    return pool.run(source, fileName, {
      timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
      maxMemoryMb: options.maxMemoryMb ?? DEFAULTS.maxMemoryMb,
      signal: options.signal,
    });
  }

  return {
    async extractFile(path, fileName, options = {}) {
      let size: number;
      try {
        size = (await stat(path)).size;
      } catch (error) {
        throw ExtractionError.cannotRead(fileName, 'unreadable', 'the stored file is missing', error);
      }
      return extract({ path }, size, fileName, options);
    },
    extractBuffer(bytes, fileName, options = {}) {
      return extract({ bytes }, bytes.length, fileName, options);
    },
    async close() {
      await pool?.close();
      pool = undefined;
    },
  };
}

function formatMegabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

// The daemon has one extraction pool; its workers are unreferenced while idle, so it never holds the process open.
const shared = createExtractor();

/** Reads a file from disk and returns its pages. Runs the parser in a worker thread. */
export function extractFile(
  path: string,
  fileName: string,
  options?: ExtractOptions,
): Promise<ExtractedDocument> {
  return shared.extractFile(path, fileName, options);
}

/** Same for bytes already in memory (used for URLs that point at files). */
export function extractBuffer(
  bytes: Uint8Array,
  fileName: string,
  options?: ExtractOptions,
): Promise<ExtractedDocument> {
  return shared.extractBuffer(bytes, fileName, options);
}
