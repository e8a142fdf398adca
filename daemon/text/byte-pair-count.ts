import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * The o200k vocabulary as tiktoken publishes it, a line per token: its bytes in base64, a space, its rank. Read
 * as bytes into the tables below, so no string per token is made: the library's list of 200,000 strings took
 * 250 ms to compile and 8.6 MB of heap in every thread that counted, which each full GC marked again.
 */
const VOCABULARY_FILE = 'gpt-tokenizer/data/o200k_base.tiktoken';
const SPACE = 0x20;
const NEWLINE = 0x0a;
const PADDING = 0x3d;
/** Each base64 character's six bits by its byte, -1 for anything else. */
const BASE64_VALUES = new Int8Array(256).fill(-1);
for (const [index, character] of [
  ...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/',
].entries())
  BASE64_VALUES[character.charCodeAt(0)] = index;

/** Above every rank: the bytes are no token. */
const NO_RANK = 0x7fffffff;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * The o200k vocabulary keyed by bytes. Two-byte tokens, the most looked up, index an array directly; longer ones
 * sit in an open-addressing table whose keys are compared in a byte pool. The library's encoder instead looks
 * every candidate pair up in a Map of strings, decoding the bytes to a string first, which made counting a new
 * word cost several microseconds.
 */
interface RankTable {
  pairs: Int32Array;
  /** Pairs of a token's hash and its rank + 1, side by side so that a probe reads one cache line; 0 when empty. */
  slots: Int32Array;
  starts: Int32Array;
  lengths: Int32Array;
  bytes: Uint8Array;
}

let rankTable: RankTable | undefined;
let pieceBytes = new Uint8Array(256);
let partStarts = new Int32Array(257);
let pairRanks = new Int32Array(257);

/**
 * The number of o200k tokens in one pre-token: the byte-pair merges of tiktoken (and gpt-tokenizer), lowest
 * rank first, leftmost on ties, after the shortcut that a pre-token which is itself a token is one token.
 */
export function countBytePairTokens(preToken: string): number {
  rankTable ??= buildRankTable();
  const table = rankTable;
  const length = encodePiece(preToken);
  if (length <= 1) return length;
  // The library looks the whole pre-token up as a string, which a lone surrogate never matches.
  if (preToken.isWellFormed() && rankOf(table, pieceBytes, 0, length) !== NO_RANK) return 1;
  if (partStarts.length <= length) {
    partStarts = new Int32Array(length + 1);
    pairRanks = new Int32Array(length + 1);
  }
  for (let index = 0; index <= length; index++) partStarts[index] = index;
  for (let index = 0; index < length - 1; index++)
    pairRanks[index] = table.pairs[(pieceBytes[index]! << 8) | pieceBytes[index + 1]!]!;
  let parts = length;
  while (parts > 1) {
    let lowest = NO_RANK;
    let at = -1;
    for (let index = 0; index < parts - 1; index++) {
      if (pairRanks[index]! < lowest) {
        lowest = pairRanks[index]!;
        at = index;
      }
    }
    if (at < 0) break;
    partStarts.copyWithin(at + 1, at + 2, parts + 1);
    pairRanks.copyWithin(at + 1, at + 2, parts - 1);
    parts--;
    pairRanks[at] =
      at + 1 < parts ? rankOf(table, pieceBytes, partStarts[at]!, partStarts[at + 2]!) : NO_RANK;
    if (at > 0) pairRanks[at - 1] = rankOf(table, pieceBytes, partStarts[at - 1]!, partStarts[at + 1]!);
  }
  return parts;
}

/** The piece's UTF-8 into `pieceBytes`; returns its length. */
function encodePiece(piece: string): number {
  if (pieceBytes.length < piece.length * 3) pieceBytes = new Uint8Array(piece.length * 3);
  return encodeUtf8(piece, pieceBytes, 0);
}

/**
 * UTF-8 of `text` into `bytes` at `at`, with room for three bytes per code unit; returns its length. A lone
 * surrogate becomes U+FFFD, as with the library's TextEncoder. Written out, as TextEncoder's `encodeInto` needs
 * a view per call, which costs more than encoding a pre-token.
 */
function encodeUtf8(text: string, bytes: Uint8Array, at: number): number {
  let end = at;
  for (let index = 0; index < text.length; index++) {
    let code = text.charCodeAt(index);
    if (code < 0x80) {
      bytes[end++] = code;
      continue;
    }
    if (code < 0x800) {
      bytes[end++] = 0xc0 | (code >> 6);
      bytes[end++] = 0x80 | (code & 0x3f);
      continue;
    }
    if (code >= 0xd800 && code <= 0xdfff) {
      const next = text.charCodeAt(index + 1);
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
        index++;
        bytes[end++] = 0xf0 | (code >> 18);
        bytes[end++] = 0x80 | ((code >> 12) & 0x3f);
        bytes[end++] = 0x80 | ((code >> 6) & 0x3f);
        bytes[end++] = 0x80 | (code & 0x3f);
        continue;
      }
      code = 0xfffd;
    }
    bytes[end++] = 0xe0 | (code >> 12);
    bytes[end++] = 0x80 | ((code >> 6) & 0x3f);
    bytes[end++] = 0x80 | (code & 0x3f);
  }
  return end - at;
}

function rankOf(table: RankTable, bytes: Uint8Array, start: number, end: number): number {
  if (end - start === 2) return table.pairs[(bytes[start]! << 8) | bytes[start + 1]!]!;
  const hash = hashBytes(bytes, start, end);
  const mask = table.slots.length - 2;
  for (let slot = (hash << 1) & mask; table.slots[slot + 1] !== 0; slot = (slot + 2) & mask) {
    if (table.slots[slot] !== hash) continue;
    const rank = table.slots[slot + 1]! - 1;
    if (sameBytes(table, rank, bytes, start, end)) return rank;
  }
  return NO_RANK;
}

function sameBytes(table: RankTable, rank: number, bytes: Uint8Array, start: number, end: number): boolean {
  if (table.lengths[rank] !== end - start) return false;
  const offset = table.starts[rank]! - start;
  for (let index = start; index < end; index++)
    if (table.bytes[offset + index] !== bytes[index]) return false;
  return true;
}

function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let hash = FNV_OFFSET;
  for (let index = start; index < end; index++) hash = Math.imul(hash ^ bytes[index]!, FNV_PRIME);
  // FNV's low bits, which pick the slot, are its weakest: fold the high ones in.
  return hash ^ (hash >>> 15);
}

function buildRankTable(): RankTable {
  const vocabulary = readFileSync(createRequire(import.meta.url).resolve(VOCABULARY_FILE));
  const lines = countLines(vocabulary);
  const table: RankTable = {
    pairs: new Int32Array(1 << 16).fill(NO_RANK),
    slots: new Int32Array(1 << 20),
    starts: new Int32Array(lines),
    lengths: new Int32Array(lines),
    // Base64 is four characters for three bytes: the decoded tokens fit in the file's size.
    bytes: new Uint8Array(vocabulary.length),
  };
  let used = 0;
  for (let lineStart = 0; lineStart < vocabulary.length; ) {
    let lineEnd = lineStart;
    while (lineEnd < vocabulary.length && vocabulary[lineEnd] !== NEWLINE) lineEnd++;
    // A blank line, such as a trailing one, holds no token.
    if (lineEnd > lineStart) {
      let space = lineStart;
      while (space < lineEnd && vocabulary[space] !== SPACE) space++;
      const rank = parseRank(vocabulary, space + 1, lineEnd);
      const length =
        rank < 0 || rank >= lines ? -1 : decodeBase64(vocabulary, lineStart, space, table.bytes, used);
      if (length <= 0) throw new Error(`malformed o200k vocabulary at byte ${lineStart}`);
      table.starts[rank] = used;
      table.lengths[rank] = length;
      used += length;
      if (length === 2) table.pairs[(table.bytes[used - 2]! << 8) | table.bytes[used - 1]!] = rank;
      else if (length > 2) insertRank(table, rank);
    }
    lineStart = lineEnd + 1;
  }
  if (used === 0) throw new Error('the o200k vocabulary is empty');
  table.bytes = table.bytes.slice(0, used);
  return table;
}

function countLines(file: Uint8Array): number {
  let lines = 0;
  for (let index = 0; index < file.length; index++) if (file[index] === NEWLINE) lines++;
  return file.at(-1) === NEWLINE ? lines : lines + 1;
}

/** The decimal number `file[start, end)` holds, or -1 when it holds anything else (or nothing). */
function parseRank(file: Uint8Array, start: number, end: number): number {
  if (start >= end) return -1;
  let rank = 0;
  for (let index = start; index < end; index++) {
    const digit = file[index]! - 48;
    if (digit < 0 || digit > 9) return -1;
    rank = rank * 10 + digit;
  }
  return rank;
}

/**
 * Decodes `file[start, end)` from base64 into `bytes` at `at`; returns the number of bytes, or -1 when a
 * character is not base64 (padding may only end it).
 */
function decodeBase64(file: Uint8Array, start: number, end: number, bytes: Uint8Array, at: number): number {
  let bits = 0;
  let bitCount = 0;
  let length = 0;
  let index = start;
  for (; index < end && file[index] !== PADDING; index++) {
    const value = BASE64_VALUES[file[index]!]!;
    if (value < 0) return -1;
    bits = ((bits << 6) | value) & 0xffffff;
    bitCount += 6;
    if (bitCount >= 8) {
      bitCount -= 8;
      bytes[at + length++] = (bits >> bitCount) & 0xff;
    }
  }
  while (index < end && file[index] === PADDING) index++;
  return index === end ? length : -1;
}

function insertRank(table: RankTable, rank: number): void {
  const start = table.starts[rank]!;
  const hash = hashBytes(table.bytes, start, start + table.lengths[rank]!);
  const mask = table.slots.length - 2;
  let slot = (hash << 1) & mask;
  while (table.slots[slot + 1] !== 0) slot = (slot + 2) & mask;
  table.slots[slot] = hash;
  table.slots[slot + 1] = rank + 1;
}
