import o200kRanks from 'gpt-tokenizer/bpeRanks/o200k_base';
import { grown } from './span-table.ts';

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
 * a view per call, which cost more than the encoding when building the table.
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
  const table: RankTable = {
    pairs: new Int32Array(1 << 16).fill(NO_RANK),
    slots: new Int32Array(1 << 20),
    starts: new Int32Array(o200kRanks.length),
    lengths: new Int32Array(o200kRanks.length),
    bytes: new Uint8Array(1 << 21),
  };
  let used = 0;
  for (let rank = 0; rank < o200kRanks.length; rank++) {
    const token = o200kRanks[rank];
    // The list may have holes, for ranks no token has.
    if (token === undefined) continue;
    const longest = typeof token === 'string' ? token.length * 3 : token.length;
    if (table.bytes.length - used < longest) table.bytes = grown(table.bytes, used + longest);
    const length =
      typeof token === 'string' ? encodeUtf8(token, table.bytes, used) : copyToken(token, table.bytes, used);
    table.starts[rank] = used;
    table.lengths[rank] = length;
    used += length;
    if (length === 2) table.pairs[(table.bytes[used - 2]! << 8) | table.bytes[used - 1]!] = rank;
    else if (length > 2) insertRank(table, rank);
  }
  return table;
}

function copyToken(token: readonly number[], bytes: Uint8Array, at: number): number {
  bytes.set(token, at);
  return token.length;
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
