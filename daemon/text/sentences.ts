/**
 * Sentences of English-like text: Markdown blocks (paragraphs, table rows, list items, headings) each split at
 * sentence ends, so a table or a list is never read as one run-on sentence.
 */
import { HEADING_MARK_SOURCE } from './headings.ts';

const abbreviations = new Set([
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'st',
  'jr',
  'sr',
  'vs',
  'etc',
  'inc',
  'ltd',
  'co',
  'corp',
  'no',
  'vol',
  'fig',
  'e.g',
  'i.e',
  'approx',
  'est',
  'gen',
  'gov',
  'lt',
  'col',
  'sgt',
  'capt',
  'adm',
  'maj',
  'rep',
  'sen',
  'rev',
  'hon',
  'pres',
  'bros',
  'messrs',
  'dept',
  'univ',
  'ave',
  'mt',
  'ft',
  'jan',
  'feb',
  'mar',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
  'u.s',
  'u.k',
  'a.d',
  'b.c',
]);

/** A line that stands alone in Markdown: a table row, a list item or a heading. */
const STANDALONE_LINE = new RegExp(String.raw`^\s*(\||[-*+] |\d+[.)] |${HEADING_MARK_SOURCE})`);
/** A list item's first line: the lines after it, up to a blank or another item, carry it on. */
export const LIST_ITEM = /^([-*+] |\d+[.)] )/;
/** A `name: value` line: e-mail headers, JSON leaves (`people[0].name: Ada`), metadata. */
export const RECORD_LINE = /^[^\s:][^:\n]{0,80}: \S/;

/**
 * A JSON leaf's path with a quoted key, which may hold spaces and stops (`main.characters."Dr. Robert Ford"[5].quote:`)
 * but no sentence end.
 */
const QUOTED_KEY_PATH = /^[^\s:"]*"[^"\n]*"[^\s:]*: /;

/** A table's rule row (`|---|:-:|`), which says nothing. */
const TABLE_RULE = /^\s*\|?[\s|:-]+\|?\s*$/;

/**
 * Where the units of `text[start, end)` lie that are read on their own before splitting at sentence ends:
 * paragraphs, and each table row, list item (with the lines it wraps onto) or heading, so a table or a list is never answered as one run-on
 * "sentence". A paragraph of `name: value` records (at least half its lines: headers, JSON leaves) is read line
 * by line too; one of short lines that each start anew (a slide's lines) in groups of a sentence's length. Lines
 * of other paragraphs stay joined: a PDF breaks lines mid-sentence.
 */
function unitSpans(text: string, start: number, end: number): Span[] {
  const units: Span[] = [];
  let paragraph: Span[] = [];
  let item: Span | undefined;
  const endParagraph = () => {
    if (item) units.push(item);
    item = undefined;
    units.push(...paragraphUnits(text, paragraph));
    paragraph = [];
  };
  for (const line of lineSpans(text, start, end)) {
    const content = text.slice(line.start, line.end);
    if (line.start === line.end) {
      endParagraph();
    } else if (STANDALONE_LINE.test(content)) {
      endParagraph();
      if (LIST_ITEM.test(content)) item = line;
      else units.push(line);
    } else if (item) {
      // A list item's text wraps onto the lines under it, as a changelog's entries do.
      item = { start: item.start, end: line.end };
    } else {
      paragraph.push(line);
    }
  }
  endParagraph();
  return units;
}

/** The lines of `text[start, end)`, each without the whitespace around it (a blank line is an empty span). */
function lineSpans(text: string, start: number, end: number): Span[] {
  const lines: Span[] = [];
  for (let lineStart = start; lineStart <= end; ) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline < 0 || newline > end ? end : newline;
    let first = lineStart;
    let last = lineEnd;
    while (first < last && /\s/.test(text[first]!)) first++;
    while (last > first && /\s/.test(text[last - 1]!)) last--;
    lines.push({ start: first, end: last });
    lineStart = lineEnd + 1;
  }
  return lines;
}

function paragraphUnits(text: string, lines: Span[]): Span[] {
  const first = lines[0];
  const last = lines.at(-1);
  if (first === undefined || last === undefined) return [];
  const contents = lines.map((line) => text.slice(line.start, line.end));
  const records = contents.filter((line) => RECORD_LINE.test(line)).length;
  if (lines.length > 1 && records * 2 >= lines.length) return lines;
  if (lines.length > 1 && isLineList(contents)) return lineGroups(lines, contents);
  return [{ start: first.start, end: last.end }];
}

/**
 * Lines that mostly start anew (a capital, a digit) and are short: a slide's bullets or a form, not wrapped prose.
 * Verse starts its lines with capitals too, but its lines often end in a comma, which no bullet needs: its
 * sentences run on across the lines.
 */
function isLineList(lines: string[]): boolean {
  const starts = lines.slice(1).filter((line) => /^\s*["“‘(]?[\p{Lu}\p{N}•▪◦–-]/u.test(line)).length;
  const commaEnds = lines.slice(0, -1).filter((line) => /,\s*$/.test(line)).length;
  const lengths = lines.map(lineWords).sort((left, right) => left - right);
  const medianLength = lengths[Math.floor(lengths.length / 2)] ?? 0;
  return (
    starts >= LIST_LINE_SHARE * (lines.length - 1) &&
    commaEnds < RUNNING_LINE_SHARE * (lines.length - 1) &&
    medianLength <= LIST_LINE_WORDS
  );
}

function lineWords(line: string): number {
  return line.trim().split(/\s+/).length;
}

/** Share of lines starting anew, and median words per line, of a block read line by line. */
const LIST_LINE_SHARE = 0.6;
const LIST_LINE_WORDS = 20;
/** Share of lines ending in a comma that marks verse or running text rather than a list. */
const RUNNING_LINE_SHARE = 0.25;
/** Short lines are read together up to about a sentence's length: a name, then the role under it... */
const LINE_GROUP_WORDS = 20;
/** ...but a line of a clause's length starts a unit of its own: a slide's bullet ("Auditing will begin in 2004")... */
const CLAUSE_LINE_WORDS = 4;
/** ...and a line this long says something whole by itself. */
const LONG_LINE_WORDS = 8;

/**
 * Consecutive lines joined into units of at most a sentence's length: short lines join the line before them, a line of
 * a clause's length starts a unit unless it carries on the one before, a long one stands alone.
 */
function lineGroups(lines: Span[], contents: string[]): Span[] {
  const groups: Span[] = [];
  let group: Span | undefined;
  let length = 0;
  for (const [index, line] of lines.entries()) {
    const content = contents[index]!;
    const lineLength = lineWords(content);
    const startsUnit =
      length + lineLength > LINE_GROUP_WORDS ||
      (lineLength >= CLAUSE_LINE_WORDS && !continuesLine(contents[index - 1] ?? '', content));
    if (group && startsUnit && !wrapsOnto(contents[index - 1] ?? '', content)) {
      groups.push(group);
      group = undefined;
      length = 0;
    }
    group = { start: group?.start ?? line.start, end: line.end };
    length += lineLength;
    if (wrapsOnto(content, contents[index + 1] ?? '')) continue;
    if (lineLength >= LONG_LINE_WORDS || ENDS_SENTENCE.test(content)) {
      groups.push(group);
      group = undefined;
      length = 0;
    }
  }
  if (group) groups.push(group);
  return groups;
}

const ENDS_SENTENCE = /[.!?:]["”’)\]]?$/;

/**
 * A long line breaking off without a stop, before a short one ending a sentence, is prose wrapped onto the next
 * line ("...accepted by the Apache" and "Incubator PMC."), not a bullet.
 */
function wrapsOnto(line: string, next: string): boolean {
  return (
    lineWords(line) >= LONG_LINE_WORDS &&
    !/[.!?:;]["”’)\]]?$/.test(line) &&
    lineWords(next) < CLAUSE_LINE_WORDS &&
    /[.!?]["”’)\]]?$/.test(next)
  );
}

/** A line carries on the one before when that one breaks off (a hyphen, a comma) or it starts in lower case. */
function continuesLine(previous: string, line: string): boolean {
  return /[-–,;/&(]$/.test(previous) || /^\p{Ll}/u.test(line);
}

/** Markdown's paragraphs: the blocks between blank lines, which no unit `sentences` reads crosses. */
export function paragraphs(text: string): string[] {
  return text.split(/\n[^\S\n]*\n/);
}

/**
 * Splits text into sentences: first into Markdown blocks, then at sentence ends (`sentenceSpans`), each with its
 * whitespace collapsed.
 */
export function sentences(text: string): string[] {
  return unitSpans(text, 0, text.length).flatMap((unit) => {
    const content = readableUnit(text.slice(unit.start, unit.end));
    return proseSpans(content, 0, content.length)
      .map(({ start, end }) => content.slice(start, end).replace(/\s+/g, ' ').trim())
      .filter(Boolean);
  });
}

/**
 * The sentences of `text` as a reply quotes them: those of `sentences`, but each fenced code block whole, as one, with
 * its lines. Code split at its stops reads as nonsense (`require("mammoth");.`), and on one line it is no block. A
 * block cut at the text's edge (a chunk's) is read as far as the text goes, its missing fence added: its lines are
 * whole commands still ("java -jar tika-app.jar --text document.pdf # plain text").
 */
export function quotableSentences(text: string): string[] {
  return textAndCode(text).flatMap((part) => (part.code ? [part.text] : sentences(part.text)));
}

/**
 * A fenced code block's fence line: three or four backticks, or three tildes, with or without the code's language
 * after them. A longer run of tildes is a divider in plain text and e-mail, not a fence.
 */
export const FENCE = /^\s*(?:````?(?!`)|~~~(?!~))/;
/** A fence without the code's language: the only kind that closes a block. */
const BARE_FENCE = /^\s*(?:````?|~~~)\s*$/;

interface Fence {
  line: number;
  /** The fence's own marks ("```", "~~~"): a block is closed by the same. */
  marks: string;
  bare: boolean;
}

/** The text's prose and its fenced code blocks, in order, each block with both its fences. */
export function textAndCode(text: string): { code: boolean; text: string }[] {
  const lines = text.split('\n');
  const fences = fencesOf(lines);
  if (fences.length === 0) return [{ code: false, text }];
  const blocks = codeBlocks(fences, !startsOutsideCode(lines, fences));
  const parts: { code: boolean; text: string }[] = [];
  let from = 0;
  for (const { open, close } of blocks) {
    const first = open?.line ?? 0;
    const last = close?.line ?? lines.length - 1;
    parts.push({ code: false, text: lines.slice(from, open ? first : 0).join('\n') });
    // A block cut at the text's edge gets the fence it lacks, of the marks of the one it has.
    const marks = (open ?? close)!.marks;
    const indent = /^\s*/.exec(lines[(open ?? close)!.line]!)![0].length;
    const block = dedented(lines.slice(open ? first + 1 : 0, close ? last : lines.length), indent);
    parts.push({ code: true, text: [open ? lines[first]!.trim() : marks, ...block, marks].join('\n') });
    from = last + 1;
  }
  parts.push({ code: false, text: lines.slice(from).join('\n') });
  return parts;
}

/**
 * Which of a text's lines belong to a fenced code block, its fences included, read from the text's start outside
 * any: a line of code is no heading ("# install the tool" in a shell example). A block never closed marks nothing,
 * so that a stray last fence does not take the rest of the text for code (a stray fence before others pairs with
 * the next, as CommonMark reads it).
 */
export function fencedLines(lines: readonly string[]): boolean[] {
  const fenced = lines.map(() => false);
  for (const { open, close } of codeBlocks(fencesOf(lines), false)) {
    if (!open || !close) continue;
    fenced.fill(true, open.line, close.line + 1);
  }
  return fenced;
}

/** A list item's mark before a fence it opens with ("- ```bash"). */
const ITEM_MARK = /^\s*(?:[-*+]|\d{1,3}[.)])\s+(?=```|~~~)/;
/** Code inline between runs of three backticks ("```npm i tool``` installs it"): a fence's language holds no backtick. */
const INLINE_CODE = /^\s*`{3,}[^`]+`/;

function fencesOf(lines: readonly string[]): Fence[] {
  return lines.flatMap((content, line): Fence[] => {
    const fence = content.replace(ITEM_MARK, '');
    if (!FENCE.test(fence) || INLINE_CODE.test(fence)) return [];
    return [{ line, marks: fence.trim().match(/^[`~]+/)![0], bare: BARE_FENCE.test(fence) }];
  });
}

/**
 * The blocks the fences mark, read from the text's start inside a block or not: a fence opens a block, and the next
 * bare one of the same marks closes it. A block without its opening fence (`open` undefined) began before the text,
 * one without its closing fence runs on past its end.
 */
function codeBlocks(fences: Fence[], startsInside: boolean): { open?: Fence; close?: Fence }[] {
  const blocks: { open?: Fence; close?: Fence }[] = [];
  let open: Fence | undefined;
  let inside = startsInside;
  for (const fence of fences) {
    if (!inside) {
      open = fence;
      inside = true;
    } else if (fence.bare && (open === undefined || fence.marks.startsWith(open.marks))) {
      blocks.push({ ...(open ? { open } : {}), close: fence });
      open = undefined;
      inside = false;
    }
  }
  if (inside && open) blocks.push({ open });
  return blocks;
}

/**
 * Whether the text starts outside a code block, as most chunks do. It starts inside one (the chunk was cut in it)
 * when reading it from outside would take a fence naming a language as code, which only opens a block ("```js"
 * after "});\n```"), and reading it from inside would not; or, the fences telling neither, when an odd number of
 * them follows lines of code rather than prose (a sentence ending in a stop, or a label introducing the block).
 */
function startsOutsideCode(lines: string[], fences: Fence[]): boolean {
  const misread = (startsInside: boolean) =>
    codeBlocks(fences, startsInside).some(({ open, close }) =>
      fences.some(
        (fence) =>
          !fence.bare &&
          fence !== open &&
          fence.line > (open?.line ?? -1) &&
          fence.line < (close?.line ?? Infinity),
      ),
    );
  const fromOutside = misread(false);
  const fromInside = misread(true);
  if (fromOutside !== fromInside) return !fromOutside;
  if (fences.length % 2 === 0 || !fences[0]!.bare) return true;
  const before = lines.slice(0, fences[0]!.line).filter((line) => line.trim() !== '');
  return before.some((line) => /[.!?:]["”’)]?$/.test(line.trim()) && line.trim().split(/\s+/).length >= 4);
}

/** A block's lines without its fence's indent (a block inside a list item): quoted, it stands at a line's start. */
function dedented(block: string[], indent: number): string[] {
  return block.map((line) => line.slice(Math.min(indent, /^\s*/.exec(line)![0].length)).trimEnd());
}

/** A table row's cells as clauses, separated by semicolons; a table rule as nothing. */
function readableUnit(unit: string): string {
  if (TABLE_RULE.test(unit)) return '';
  if (!unit.startsWith('|')) return unit;
  return unit.replace(/^\|\s*|\s*\|$/g, '').replace(/\s*\|\s*/g, '; ');
}

export interface Span {
  start: number;
  end: number;
}

/**
 * Where the sentences of `text[start, end)` lie, as spans that cover it but for the whitespace between them: the
 * units `sentences` reads on their own (so a chunk cut between two never splits a JSON leaf, a header or a
 * slide's bullet), each split at its sentence ends (`proseSpans`).
 */
export function sentenceSpans(text: string, start = 0, end = text.length): Span[] {
  return unitSpans(text, start, end).flatMap((unit) => proseSpans(text, unit.start, unit.end));
}

/**
 * Where the sentences of running text `text[start, end)` lie. A sentence ends at `.`, `!`, `?`, `…` or `。` (and a closing quote or bracket) followed by whitespace and a capital,
 * digit or opening quote, or by a line break; a full stop after a common abbreviation or an initial ("U.S.",
 * "Dr.", "J. R.") ends nothing.
 */
function proseSpans(text: string, start: number, end: number): Span[] {
  const spans: Span[] = [];
  const region = text.slice(start, end);
  let sentenceStart = region.search(/\S/);
  if (sentenceStart < 0) return spans;
  const labelEnd = QUOTED_KEY_PATH.exec(region)?.[0].length ?? -1;
  for (const match of region.matchAll(/[.!?…。]["”’)\]]*(\s+)/gu)) {
    const punctuationEnd = match.index + match[0].length - match[1]!.length;
    const next = region.slice(match.index + match[0].length, match.index + match[0].length + 2);
    if (!/\n/.test(match[1]!) && !/^["“‘([]?[\p{Lu}\p{N}]/u.test(next)) continue;
    if (region[match.index] === '.' && isAbbreviation(region.slice(sentenceStart, match.index))) continue;
    if (match.index < labelEnd) continue;
    if (match.index + match[0].length >= region.length) break;
    spans.push({ start: start + sentenceStart, end: start + punctuationEnd });
    sentenceStart = match.index + match[0].length;
  }
  const last = region.slice(sentenceStart).trimEnd();
  if (last) spans.push({ start: start + sentenceStart, end: start + sentenceStart + last.length });
  return spans;
}

/** Abbreviations of citations, as they are written: "CA." (California) and "Al." (a name) end sentences. */
const CITATION_ABBREVIATION = /(?:\bet al|\bcf|\bca)$/;

/** The word before a full stop is an abbreviation or an initial, so the stop ends no sentence. */
function isAbbreviation(before: string): boolean {
  const lastToken = (before.match(/(\S+)$/)?.[1] ?? '').toLowerCase().replace(/^.*[("“‘]/, '');
  return abbreviations.has(lastToken) || /^\p{L}$/u.test(lastToken) || CITATION_ABBREVIATION.test(before);
}
