import { type Heading, markdownHeading } from '../text/headings.ts';
import { fencedLines, type Span, sentenceSpans } from '../text/sentences.ts';
import { CountedText, countTokens } from '../text/token-count.ts';
import type { Chunk, ExtractedDocument } from './types.ts';

export interface ChunkOptions {
  targetTokens?: number;
  overlapTokens?: number;
}

/**
 * `node bench/retrieval.ts --chunk-sweep` compares sizes from 128 to 768 tokens. With the reranker refitted at
 * each size, 768 gave the bench's held-out SQuAD questions hit@1 0.878 against 0.855 at 512, and SciFact
 * nDCG@10 0.775 against 0.780: a larger passage holds more, so the first one holds the answer more often. The
 * offline replies held the answer as often at either size (about 0.83), as the responder quotes sentences, not
 * passages; a citation still names the passage's page.
 */
export const DEFAULT_TARGET_TOKENS = 768;
export const DEFAULT_OVERLAP_TOKENS = 32;

type Block = { kind: 'heading'; heading: Heading; line: string } | { kind: 'text'; text: string };

interface Piece {
  text: string;
  tokens: number;
  /**
   * Continues the paragraph of the piece before it, so it joins with what separated them there (a line break
   * between a list's lines, a JSON document's leaves, else a space), not a paragraph break.
   */
  joiner?: '\n' | ' ';
  /** The counted paragraph the piece comes from, and where in it the piece ends, to count its tail from. */
  source?: CountedText;
  sourceEnd?: number;
}

const SPACES = /\s+/g;

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
  const ownHeading = markdownHeading(firstLine)?.text;
  const headings = ownHeading === chunk.headings.at(-1) ? chunk.headings.slice(0, -1) : chunk.headings;
  return headings.length === 0 ? chunk.text : `${headings.join(' > ')}\n${chunk.text}`;
}

function parseBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  let paragraphLines: string[] = [];
  const endParagraph = () => {
    const paragraph = paragraphLines.join('\n').trim();
    if (paragraph !== '') blocks.push({ kind: 'text', text: paragraph });
    paragraphLines = [];
  };
  const lines = text.split(/\r?\n/);
  // A README's shell example opens lines with "#" ("# anything embedded in it"): comments, not headings.
  const fenced = fencedLines(lines);
  for (const [index, line] of lines.entries()) {
    const heading = fenced[index] ? undefined : markdownHeading(line);
    if (heading) {
      endParagraph();
      blocks.push({ kind: 'heading', heading, line: line.trim() });
    } else if (line.trim() === '') {
      endParagraph();
    } else {
      paragraphLines.push(line);
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
    // Counted once: its sentences, words and their tails are counted from it.
    const paragraph = new CountedText(block.text);
    if (paragraph.tokens <= this.targetTokens) {
      this.addBody(spanPiece(paragraph, 0, block.text.length, paragraph.tokens));
      return;
    }
    // Pieces of a long paragraph leave room for the overlap carried into the next chunk.
    const pieces = splitToFit(
      paragraph,
      { start: 0, end: block.text.length },
      paragraph.tokens,
      this.targetTokens - this.overlapTokens - 1,
    );
    pieces.forEach((piece, position) => {
      const previous = pieces[position - 1];
      this.addBody(previous ? { ...piece, joiner: separatorAfter(paragraph.text, previous) } : piece);
    });
  }

  flush(): void {
    if (this.parts.length === 0) return;
    const chunk: Chunk = {
      index: this.output.length,
      page: this.page,
      text: this.parts
        .map((part, position) => (position === 0 ? '' : (part.joiner ?? '\n\n')) + part.text)
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
  const sentences = sentenceSpans(piece.text);
  let tail: Piece | undefined;
  for (let start = sentences.length - 1; start > 0; start--) {
    const text = piece.text.slice(sentences[start]!.start);
    const tokens = countTail(piece, text);
    if (tokens > overlapTokens) break;
    tail = { text, tokens };
  }
  return tail;
}

/** Tokens in a tail of a piece: from its paragraph's count where the tail is verbatim the paragraph's text. */
function countTail(piece: Piece, tail: string): number {
  const { source, sourceEnd } = piece;
  if (source === undefined || sourceEnd === undefined || !source.text.endsWith(tail, sourceEnd)) {
    return countTokens(tail);
  }
  return source.count(sourceEnd - tail.length, sourceEnd);
}

/** A line break when the text after a piece starts a new line, else a space. */
function separatorAfter(text: string, piece: Piece): '\n' | ' ' {
  const gap = /^\s*/.exec(text.slice(piece.sourceEnd ?? text.length))?.[0] ?? '';
  return gap.includes('\n') ? '\n' : ' ';
}

/** The piece of a paragraph's text from `start` to `end`, which holds `tokens`. */
function spanPiece(source: CountedText, start: number, end: number, tokens: number): Piece {
  return { text: source.text.slice(start, end), tokens, source, sourceEnd: end };
}

/** Paragraph, else sentences, else words, else characters: the largest units that fit the target. */
function splitToFit(source: CountedText, span: Span, tokens: number, targetTokens: number): Piece[] {
  if (tokens <= targetTokens) return [spanPiece(source, span.start, span.end, tokens)];
  const sentences = sentenceSpans(source.text, span.start, span.end);
  if (sentences.length > 1) return groupUnits(source, sentences, targetTokens);
  const words = spansBetween(source.text, span, SPACES);
  if (words.length > 1) return groupUnits(source, words, targetTokens);
  return splitCharacters(source, span, tokens, targetTokens);
}

/** `text.slice(start, end).split(separator)`, as spans of `text`. */
function spansBetween(text: string, { start, end }: Span, separator: RegExp): Span[] {
  const spans: Span[] = [];
  let unitStart = 0;
  for (const match of text.slice(start, end).matchAll(separator)) {
    spans.push({ start: start + unitStart, end: start + match.index });
    unitStart = match.index + match[0].length;
  }
  spans.push({ start: start + unitStart, end });
  return spans;
}

/**
 * Consecutive units grouped into pieces that fit, each piece the text from its first unit to its last as written
 * (line breaks kept: a JSON leaf or a header stays on its line); a unit too large alone is split further.
 */
function groupUnits(source: CountedText, units: Span[], targetTokens: number): Piece[] {
  const pieces: Piece[] = [];
  let group: string[] = [];
  let groupTokens = 0;
  let groupStart = 0;
  let groupEnd = 0;
  const close = () => {
    if (group.length > 0) {
      pieces.push({
        text: source.text.slice(groupStart, groupEnd),
        tokens: groupTokens,
        source,
        sourceEnd: groupEnd,
      });
    }
    group = [];
    groupTokens = 0;
  };
  for (const unit of units) {
    const unitTokens = source.count(unit.start, unit.end);
    if (unitTokens > targetTokens) {
      close();
      pieces.push(...splitToFit(source, unit, unitTokens, targetTokens));
      continue;
    }
    if (groupTokens + unitTokens + 1 > targetTokens) close();
    if (group.length === 0) groupStart = unit.start;
    group.push(source.text.slice(unit.start, unit.end));
    groupTokens += unitTokens + (group.length > 1 ? 1 : 0);
    groupEnd = unit.end;
  }
  close();
  return pieces;
}

/** Runs of whole code points, sized from the span's characters per token, for text without spaces. */
function splitCharacters(
  source: CountedText,
  { start, end }: Span,
  tokens: number,
  targetTokens: number,
): Piece[] {
  const boundaries = codePointBoundaries(source.text, start, end);
  const characters = boundaries.length - 1;
  const step = Math.max(1, Math.floor((characters * targetTokens) / tokens / 1.25));
  const pieces: Piece[] = [];
  for (let first = 0; first < characters; first += step) {
    const from = boundaries[first]!;
    const to = boundaries[Math.min(first + step, characters)]!;
    pieces.push(spanPiece(source, from, to, source.count(from, to)));
  }
  return pieces;
}

/** Where each code point of `text[start, end)` starts, and `end`. */
function codePointBoundaries(text: string, start: number, end: number): number[] {
  const boundaries: number[] = [];
  for (let index = start; index < end; index++) {
    boundaries.push(index);
    if (index + 1 < end && text.codePointAt(index)! > 0xffff) index++;
  }
  boundaries.push(end);
  return boundaries;
}
