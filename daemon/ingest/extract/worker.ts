import { readFile } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import type { ExtractedDocument } from '../types.ts';
import { ExtractionError, type ExtractionFailure } from './errors.ts';
import { parseDocument } from './parse.ts';

export type WorkerSource = { path: string } | { bytes: Uint8Array };
export interface WorkerRequest {
  id: number;
  fileName: string;
  source: WorkerSource;
}
export type WorkerResponse =
  | { id: number; ok: true; document: ExtractedDocument }
  | { id: number; ok: false; reason: ExtractionFailure; message: string };

parentPort?.on('message', async (request: WorkerRequest) => {
  parentPort?.postMessage(await answer(request));
});

async function answer({ id, fileName, source }: WorkerRequest): Promise<WorkerResponse> {
  try {
    const bytes = 'bytes' in source ? source.bytes : await readStoredFile(source.path, fileName);
    return { id, ok: true, document: await parseDocument(bytes, fileName) };
  } catch (error) {
    const failure = error instanceof ExtractionError ? error : unexpected(error, fileName);
    return { id, ok: false, reason: failure.reason, message: failure.message };
  }
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
