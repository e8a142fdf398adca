import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { countBytePairTokens } from './byte-pair-count.ts';
import { SpanTable } from './span-table.ts';

/**
 * Distinct pre-tokens remembered, and their characters; past either the memo starts over, so memory stays
 * bounded on any input. The QA corpora (4.6 MB) hold about 47,000.
 */
const PRE_TOKEN_CACHE_SIZE = 1 << 17;
const PRE_TOKEN_CACHE_CHARACTERS = 1 << 21;
/** Own copy: the library's regex is global and stateful, and it is used by the library itself too. */
const PRE_TOKEN = new RegExp(O200K_TOKEN_SPLIT_REGEX.source, O200K_TOKEN_SPLIT_REGEX.flags);
const NOT_ASCII = /[^\0-\x7f]/g;
/** How far past a pre-token's end `asciiPreTokenEnd` reads, but for runs of spaces: a contraction's letters. */
const ASCII_LOOKAHEAD = 2;

/** Each pre-token's token count. */
const preTokens = new SpanTable(PRE_TOKEN_CACHE_SIZE, PRE_TOKEN_CACHE_CHARACTERS);

/**
 * The exact o200k token count: the sum over the tokenizer's pre-tokens, as byte-pair merges never cross them.
 * Counts are memoised per pre-token, and word frequencies follow Zipf's law, so most pre-tokens cost a lookup
 * instead of a byte-pair encoding. Pre-tokens are found by a hand-written scanner where the text around them is
 * ASCII, and by the tokenizer's own regex near anything else; either way they are looked up in place. Documents
 * may contain text like `<|endoftext|>`; it is plain text here, never a control token.
 */
export function countTokens(text: string): number {
  let total = 0;
  let nonAscii = nextNonAscii(text, 0);
  for (let start = 0; start < text.length; ) {
    const end = preTokenEnd(text, start, nonAscii);
    if (end > nonAscii) nonAscii = nextNonAscii(text, end);
    total += countPreToken(text, start, end);
    start = end;
  }
  return total;
}

/**
 * A text counted once, from which the count of any of its spans, as a text of its own, follows exactly: scanning
 * the span alone meets the text's own pre-tokens within a pre-token or two of its start, and from there they
 * are the same up to the last one whose scan could not have read past the span's end. Only the pre-tokens on
 * either side are scanned again. Spans of text that is not all ASCII are counted afresh.
 */
export class CountedText {
  readonly text: string;
  readonly tokens: number;
  private readonly ascii: boolean;
  /** Where each pre-token ends, and the last character its scan looked at. */
  private readonly ends: Int32Array;
  private readonly lastReads: Int32Array;
  /** Tokens in the pre-tokens before each one. */
  private readonly before: Int32Array;

  constructor(text: string) {
    this.text = text;
    this.ascii = nextNonAscii(text, 0) === Number.POSITIVE_INFINITY;
    if (!this.ascii) {
      this.tokens = countTokens(text);
      this.ends = this.lastReads = this.before = new Int32Array(0);
      return;
    }
    const ends: number[] = [];
    const lastReads: number[] = [];
    const before: number[] = [];
    let total = 0;
    for (let start = 0; start < text.length; ) {
      const end = asciiPreTokenEnd(text, start, text.length);
      ends.push(end);
      lastReads.push(lastRead);
      before.push(total);
      total += countPreToken(text, start, end);
      start = end;
    }
    this.tokens = total;
    this.ends = Int32Array.from(ends);
    this.lastReads = Int32Array.from(lastReads);
    this.before = Int32Array.from(before);
  }

  /** Tokens in `text.slice(start, end)`, exactly as `countTokens` counts that slice. */
  count(start: number, end: number): number {
    if (start === 0 && end === this.text.length) return this.tokens;
    if (!this.ascii) return countTokens(this.text.slice(start, end));
    let total = 0;
    let position = start;
    // Pre-tokens are numbered by where they end; `next` is the first that ends after `position`.
    let next = this.firstEndingAfter(position);
    while (position < end && !this.isBoundary(position, next)) {
      const preTokenEnd = asciiPreTokenEnd(this.text, position, end);
      total += countPreToken(this.text, position, preTokenEnd);
      position = preTokenEnd;
      while (next < this.ends.length && this.ends[next]! <= position) next++;
    }
    // In step with the text's pre-tokens: take those whose scan never looked as far as the span's end.
    let last = next;
    while (last < this.ends.length && this.lastReads[last]! < end) last++;
    if (last > next) {
      total += this.tokensBefore(last) - this.tokensBefore(next);
      position = this.ends[last - 1]!;
    }
    return total + countAsciiSpan(this.text, position, end);
  }

  /** Whether one of the text's pre-tokens starts at `position`, given the first that ends after it. */
  private isBoundary(position: number, next: number): boolean {
    return next === 0 ? position === 0 : this.ends[next - 1] === position;
  }

  private tokensBefore(preToken: number): number {
    return preToken < this.before.length ? this.before[preToken]! : this.tokens;
  }

  private firstEndingAfter(position: number): number {
    let low = 0;
    let high = this.ends.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.ends[middle]! <= position) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/** The end of the pre-token at `start`: the ASCII scanner where it reads only ASCII, else the regex. */
function preTokenEnd(text: string, start: number, nonAscii: number): number {
  if (start < nonAscii) {
    const end = asciiPreTokenEnd(text, start, text.length);
    if (lastRead < nonAscii) return end;
  }
  // Regex matches are contiguous, so the regex can take over at any pre-token boundary and hand back after.
  PRE_TOKEN.lastIndex = start;
  const match = PRE_TOKEN.exec(text)!;
  return match.index + match[0].length;
}

/** Tokens in `text.slice(start, end)` where that is ASCII, without slicing. */
function countAsciiSpan(text: string, start: number, end: number): number {
  let total = 0;
  for (let position = start; position < end; ) {
    const preTokenEnd = asciiPreTokenEnd(text, position, end);
    total += countPreToken(text, position, preTokenEnd);
    position = preTokenEnd;
  }
  return total;
}

function nextNonAscii(text: string, from: number): number {
  NOT_ASCII.lastIndex = from;
  return NOT_ASCII.exec(text)?.index ?? Number.POSITIVE_INFINITY;
}

function countPreToken(text: string, start: number, end: number): number {
  const known = preTokens.find(text, start, end);
  if (known >= 0) return known;
  const count = countBytePairTokens(start === 0 && end === text.length ? text : text.slice(start, end));
  if (!preTokens.hasRoomFor(end - start)) preTokens.clear();
  preTokens.add(text, start, end, count);
  return count;
}

/** The last character the latest `asciiPreTokenEnd` looked at, or may have: what its answer depends on. */
let lastRead = 0;

/**
 * Where the o200k pre-token at `start` ends, in ASCII text that ends at `limit`: the regex's alternatives, tried
 * in its order, written out for ASCII. Sets `lastRead`.
 *
 *   [^\r\n\p{L}\p{N}]?[\p{Lu}…]*[\p{Ll}…]+(contraction)? | [^\r\n\p{L}\p{N}]?[\p{Lu}…]+[\p{Ll}…]*(contraction)?
 *   | \p{N}{1,3} | ␠?[^\s\p{L}\p{N}]+[\r\n/]* | \s*[\r\n]+ | \s+(?!\S) | \s+
 */
function asciiPreTokenEnd(text: string, start: number, limit: number): number {
  const end = wordNumberOrSymbolsEnd(text, start, limit);
  if (end < 0) return spaceRunEnd(text, start, limit);
  lastRead = end + ASCII_LOOKAHEAD;
  return end;
}

/** The first four alternatives: where the pre-token at `start` ends if one of them matches, else -1. */
function wordNumberOrSymbolsEnd(text: string, start: number, limit: number): number {
  const code = text.charCodeAt(start);
  if (isLetter(code)) return letterRunEnd(text, start, limit);
  const next = start + 1 < limit ? text.charCodeAt(start + 1) : -1;
  // An optional prefix: anything but a letter, digit or line break.
  if (isLetter(next) && !isDigit(code) && !isLineBreak(code)) return letterRunEnd(text, start + 1, limit);
  if (isDigit(code)) {
    let end = start + 1;
    while (end < limit && end < start + 3 && isDigit(text.charCodeAt(end))) end++;
    return end;
  }
  const symbols = isSymbol(code) ? start : code === 32 && isSymbol(next) ? start + 1 : -1;
  if (symbols < 0) return -1;
  let end = symbols + 1;
  while (end < limit && isSymbol(text.charCodeAt(end))) end++;
  while (end < limit && isLineBreakOrSlash(text.charCodeAt(end))) end++;
  return end;
}

/**
 * Upper-case letters, then lower-case ones, then a contraction: in ASCII the two regex alternatives for words
 * both take the whole letter run.
 */
function letterRunEnd(text: string, start: number, limit: number): number {
  let end = start;
  while (end < limit && isUpper(text.charCodeAt(end))) end++;
  while (end < limit && isLower(text.charCodeAt(end))) end++;
  return end < limit && text.charCodeAt(end) === 39 ? contractionEnd(text, end, limit) : end;
}

/** After the apostrophe at `end`: `'s`, `'d`, `'m`, `'t`, `'ll`, `'ve` or `'re` in any case. */
function contractionEnd(text: string, end: number, limit: number): number {
  const first = end + 1 < limit ? text.charCodeAt(end + 1) | 0x20 : 0;
  if (first === 115 || first === 100 || first === 109 || first === 116) return end + 2;
  const second = end + 2 < limit ? text.charCodeAt(end + 2) | 0x20 : 0;
  const pair = (first === 108 && second === 108) || ((first === 118 || first === 114) && second === 101);
  return pair ? end + 3 : end;
}

/**
 * `\s*[\r\n]+` up to the run's last line break if it has one, else `\s+(?!\S)`, else `\s+`; all of them
 * read to the end of the run, which is where `lastRead` is left.
 */
function spaceRunEnd(text: string, start: number, limit: number): number {
  let end = start;
  let lastBreak = -1;
  for (; end < limit && isSpace(text.charCodeAt(end)); end++) {
    if (isLineBreak(text.charCodeAt(end))) lastBreak = end;
  }
  lastRead = end;
  if (lastBreak >= 0) return lastBreak + 1;
  if (end === limit || end - start === 1) return end;
  return end - 1;
}

function isUpper(code: number): boolean {
  return code >= 65 && code <= 90;
}

function isLower(code: number): boolean {
  return code >= 97 && code <= 122;
}

function isLetter(code: number): boolean {
  return isLower(code | 0x20);
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** JavaScript's `\s` within ASCII: tab to carriage return, and space. */
function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13);
}

function isLineBreak(code: number): boolean {
  return code === 10 || code === 13;
}

function isLineBreakOrSlash(code: number): boolean {
  return code === 10 || code === 13 || code === 47;
}

/** `[^\s\p{L}\p{N}]` within ASCII: punctuation, symbols and control characters. */
function isSymbol(code: number): boolean {
  return code >= 0 && code < 128 && !isSpace(code) && !isLetter(code) && !isDigit(code);
}
