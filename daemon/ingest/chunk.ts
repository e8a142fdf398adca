import { countTokens as countWithSpecials } from 'gpt-tokenizer/encoding/o200k_base';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import type { Chunk, ExtractedDocument } from './types.ts';

export interface ChunkOptions {
  targetTokens?: number;
  overlapTokens?: number;
}

/**
 * Near the 200-word windows that beat whole paragraphs in the baseline notes (chunks average about 185 tokens
 * on the QA sets). `node bench/retrieval.ts --chunk-sweep` compares other sizes.
 */
export const DEFAULT_TARGET_TOKENS = 256;
export const DEFAULT_OVERLAP_TOKENS = 32;

const NO_SPECIAL_TOKENS = { disallowedSpecial: new Set<string>() };

/** Distinct pre-tokens remembered; past it the cache starts over, so memory stays bounded on any input. */
const PRE_TOKEN_CACHE_SIZE = 100_000;
const preTokenCounts = new Map<string, number>();
/** Own copy: the library's regex is global and stateful, and it is used by the library itself too. */
const PRE_TOKEN = new RegExp(O200K_TOKEN_SPLIT_REGEX.source, O200K_TOKEN_SPLIT_REGEX.flags);

/**
 * The exact o200k token count: the sum over the tokenizer's pre-tokens, as byte-pair merges never cross them.
 * Counts are memoised per pre-token, and word frequencies follow Zipf's law, so most pre-tokens cost a lookup
 * instead of a byte-pair encoding. Documents may contain text like `<|endoftext|>`; it is plain text here,
 * never a control token.
 */
export function countTokens(text: string): number {
  let total = 0;
  // `match` with a global regex yields plain strings, far cheaper than matchAll's match objects.
  for (const preToken of text.match(PRE_TOKEN) ?? []) {
    let count = preTokenCounts.get(preToken);
    if (count === undefined) {
      if (preTokenCounts.size >= PRE_TOKEN_CACHE_SIZE) preTokenCounts.clear();
      count = countWithSpecials(preToken, NO_SPECIAL_TOKENS);
      preTokenCounts.set(preToken, count);
    }
    total += count;
  }
  return total;
}

interface Heading {
  level: number;
  text: string;
}

type Block = { kind: 'heading'; heading: Heading; line: string } | { kind: 'text'; text: string };

interface Piece {
  text: string;
  tokens: number;
  /** Continues the paragraph of the piece before it, so it joins with a space, not a paragraph break. */
  continues?: boolean;
}

const HEADING_LINE = /^(#{1,6})[ \t]+(.*?)[ \t#]*$/;
const SENTENCE_END = /(?<=[.!?…。])\s+/u;

/**
 * Splits a document into retrieval-sized chunks. Chunks follow the document's structure (headings, then
 * paragraphs, then sentences), never span two pages, and carry the heading path above them.
 */
export function chunkDocument(document: ExtractedDocument, options: ChunkOptions = {}): Chunk[] {
  const targetTokens = Math.max(16, options.targetTokens ?? DEFAULT_TARGET_TOKENS);
  const overlapTokens = Math.max(
    0,
    Math.min(options.overlapTokens ?? DEFAULT_OVERLAP_TOKENS, targetTokens / 2),
  );
  const chunks: Chunk[] = [];
  const path: Heading[] = [];
  for (const page of document.pages) {
    const builder = new PageChunker(page.page, page.url, targetTokens, overlapTokens, path, chunks);
    for (const block of parseBlocks(page.text)) builder.add(block);
    builder.flush();
  }
  return chunks;
}

/** The text embedded and indexed for a chunk: its heading path gives a passage the context it lacks alone. */
export function chunkContextText(chunk: Pick<Chunk, 'text' | 'headings'>): string {
  const firstLine = chunk.text.split('\n', 1)[0] ?? '';
  const ownHeading = HEADING_LINE.exec(firstLine)?.[2];
  const headings = ownHeading === chunk.headings.at(-1) ? chunk.headings.slice(0, -1) : chunk.headings;
  return headings.length === 0 ? chunk.text : `${headings.join(' > ')}\n${chunk.text}`;
}

function parseBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  let lines: string[] = [];
  const endParagraph = () => {
    const paragraph = lines.join('\n').trim();
    if (paragraph !== '') blocks.push({ kind: 'text', text: paragraph });
    lines = [];
  };
  for (const line of text.split(/\r?\n/)) {
    const heading = HEADING_LINE.exec(line);
    if (heading && heading[2] !== '') {
      endParagraph();
      blocks.push({
        kind: 'heading',
        heading: { level: heading[1]!.length, text: heading[2]! },
        line: line.trim(),
      });
    } else if (line.trim() === '') {
      endParagraph();
    } else {
      lines.push(line);
    }
  }
  endParagraph();
  return blocks;
}

class PageChunker {
  private readonly page: number;
  private readonly url: string | undefined;
  private readonly targetTokens: number;
  private readonly overlapTokens: number;
  private readonly path: Heading[];
  private readonly output: Chunk[];
  private parts: Piece[] = [];
  private tokens = 0;
  private hasBody = false;
  private headings: string[] = [];

  constructor(
    page: number,
    url: string | undefined,
    targetTokens: number,
    overlapTokens: number,
    path: Heading[],
    output: Chunk[],
  ) {
    this.page = page;
    this.url = url;
    this.targetTokens = targetTokens;
    this.overlapTokens = overlapTokens;
    this.path = path;
    this.output = output;
  }

  add(block: Block): void {
    if (block.kind === 'heading') {
      if (this.hasBody) this.flush();
      while ((this.path.at(-1)?.level ?? 0) >= block.heading.level) this.path.pop();
      this.path.push(block.heading);
      this.append({ text: block.line, tokens: countTokens(block.line) });
      return;
    }
    // Pieces of a long paragraph leave room for the overlap carried into the next chunk.
    const tokens = countTokens(block.text);
    if (tokens <= this.targetTokens) {
      this.addBody({ text: block.text, tokens });
      return;
    }
    const pieces = splitToFit(block.text, tokens, this.targetTokens - this.overlapTokens - 1);
    pieces.forEach((piece, position) => {
      this.addBody({ ...piece, continues: position > 0 });
    });
  }

  flush(): void {
    if (this.parts.length === 0) return;
    const chunk: Chunk = {
      index: this.output.length,
      page: this.page,
      text: this.parts
        .map((part, position) => (position === 0 ? '' : part.continues ? ' ' : '\n\n') + part.text)
        .join(''),
      headings: this.headings,
    };
    if (this.url !== undefined) chunk.url = this.url;
    this.output.push(chunk);
    this.parts = [];
    this.tokens = 0;
    this.hasBody = false;
  }

  private addBody(piece: Piece): void {
    if (this.hasBody && this.tokens + piece.tokens + 1 > this.targetTokens) {
      const tail = overlapTail(this.parts.at(-1)!, this.overlapTokens);
      this.flush();
      if (tail && tail.tokens + piece.tokens + 1 <= this.targetTokens) this.append(tail);
    }
    this.append(piece);
    this.hasBody = true;
  }

  private append(piece: Piece): void {
    if (this.parts.length === 0) this.headings = this.path.map((heading) => heading.text);
    this.tokens += piece.tokens + (this.parts.length > 0 ? 1 : 0);
    this.parts.push(piece);
  }
}

/** Whole trailing sentences of the previous chunk, so a passage cut mid-thought keeps its lead-in. */
function overlapTail(piece: Piece, overlapTokens: number): Piece | undefined {
  if (overlapTokens === 0) return undefined;
  const sentences = piece.text.split(SENTENCE_END);
  let tail: Piece | undefined;
  for (let start = sentences.length - 1; start > 0; start--) {
    const text = sentences.slice(start).join(' ');
    const tokens = countTokens(text);
    if (tokens > overlapTokens) break;
    tail = { text, tokens };
  }
  return tail;
}

/** Paragraph, else sentences, else words, else characters: the largest units that fit the target. */
function splitToFit(text: string, tokens: number, targetTokens: number): Piece[] {
  if (tokens <= targetTokens) return [{ text, tokens }];
  const sentences = text.split(SENTENCE_END);
  if (sentences.length > 1) return groupUnits(sentences, ' ', targetTokens);
  const words = text.split(/\s+/);
  if (words.length > 1) return groupUnits(words, ' ', targetTokens);
  return splitCharacters(text, tokens, targetTokens);
}

function groupUnits(units: string[], separator: string, targetTokens: number): Piece[] {
  const pieces: Piece[] = [];
  let group: string[] = [];
  let groupTokens = 0;
  const close = () => {
    if (group.length > 0) pieces.push({ text: group.join(separator), tokens: groupTokens });
    group = [];
    groupTokens = 0;
  };
  for (const unit of units) {
    const unitTokens = countTokens(unit);
    if (unitTokens > targetTokens) {
      close();
      pieces.push(...splitToFit(unit, unitTokens, targetTokens));
      continue;
    }
    if (groupTokens + unitTokens + 1 > targetTokens) close();
    group.push(unit);
    groupTokens += unitTokens + (group.length > 1 ? 1 : 0);
  }
  close();
  return pieces;
}

function splitCharacters(text: string, tokens: number, targetTokens: number): Piece[] {
  const characters = Array.from(text);
  const step = Math.max(1, Math.floor((characters.length * targetTokens) / tokens / 1.25));
  const pieces: Piece[] = [];
  for (let start = 0; start < characters.length; start += step) {
    const slice = characters.slice(start, start + step).join('');
    pieces.push({ text: slice, tokens: countTokens(slice) });
  }
  return pieces;
}
