/**
 * Sentences of English-like text: Markdown blocks (paragraphs, table rows, list items, headings) each split at
 * sentence ends, so a table or a list is never read as one run-on sentence.
 */

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
const STANDALONE_LINE = /^\s*(\||[-*+] |\d+[.)] |#{1,6} )/;
/** A `name: value` line: e-mail headers, JSON leaves (`people[0].name: Ada`), metadata. */
const RECORD_LINE = /^[^\s:][^:\n]{0,80}: \S/;

/**
 * Splits Markdown-ish text into blocks: paragraphs, and each table row, list item or heading on its own, so a
 * table or a list is never answered as one run-on "sentence". Table rules (`|---|`) are dropped and cell
 * separators become semicolons. A paragraph of `name: value` records (at least half its lines: headers, JSON
 * leaves) is read line by line too; one of short lines that each start anew (a slide's lines) in groups of a
 * sentence's length. Lines of other paragraphs stay joined: a PDF breaks lines mid-sentence.
 */
function blocks(text: string): string[] {
  const result: string[] = [];
  let paragraph: string[] = [];
  const endParagraph = () => {
    const records = paragraph.filter((line) => RECORD_LINE.test(line)).length;
    if (paragraph.length > 1 && records * 2 >= paragraph.length) result.push(...paragraph);
    else if (paragraph.length > 1 && isLineList(paragraph)) result.push(...lineGroups(paragraph));
    else if (paragraph.length > 0) result.push(paragraph.join('\n'));
    paragraph = [];
  };
  for (const line of text.split('\n')) {
    if (line.trim() === '') {
      endParagraph();
    } else if (STANDALONE_LINE.test(line)) {
      endParagraph();
      if (/^\s*\|?[\s|:-]+\|?\s*$/.test(line)) continue;
      result.push(
        line
          .trim()
          .replace(/^\|\s*|\s*\|$/g, '')
          .replace(/\s*\|\s*/g, '; '),
      );
    } else {
      paragraph.push(line);
    }
  }
  endParagraph();
  return result;
}

/** Lines that mostly start anew (a capital, a digit) and are short: a slide's bullets or a form, not wrapped prose. */
function isLineList(lines: string[]): boolean {
  const starts = lines.slice(1).filter((line) => /^\s*["“‘(]?[\p{Lu}\p{N}•▪◦–-]/u.test(line)).length;
  const lengths = lines.map((line) => line.trim().split(/\s+/).length).sort((left, right) => left - right);
  const medianLength = lengths[Math.floor(lengths.length / 2)] ?? 0;
  return starts >= LIST_LINE_SHARE * (lines.length - 1) && medianLength <= LIST_LINE_WORDS;
}

/** Share of lines starting anew, and median words per line, of a block read line by line. */
const LIST_LINE_SHARE = 0.6;
const LIST_LINE_WORDS = 20;
/** Short lines are read together up to about a sentence's length: a name, then the role under it... */
const LINE_GROUP_WORDS = 20;
/** ...while a line this long says something whole by itself. */
const LONG_LINE_WORDS = 8;

/** Consecutive short lines joined into units of at most a sentence's length; a long line stands alone. */
function lineGroups(lines: string[]): string[] {
  const groups: string[] = [];
  let group: string[] = [];
  let length = 0;
  for (const line of lines) {
    const lineLength = line.trim().split(/\s+/).length;
    if (group.length > 0 && (length + lineLength > LINE_GROUP_WORDS || lineLength >= LONG_LINE_WORDS)) {
      groups.push(group.join('\n'));
      group = [];
      length = 0;
    }
    group.push(line);
    length += lineLength;
    if (lineLength >= LONG_LINE_WORDS || /[.!?:]["”’)\]]?\s*$/.test(line)) {
      groups.push(group.join('\n'));
      group = [];
      length = 0;
    }
  }
  if (group.length > 0) groups.push(group.join('\n'));
  return groups;
}

/**
 * Splits text into sentences: first into Markdown blocks, then at sentence ends (`sentenceSpans`), each with its
 * whitespace collapsed.
 */
export function sentences(text: string): string[] {
  return blocks(text).flatMap((block) =>
    sentenceSpans(block)
      .map(({ start, end }) => block.slice(start, end).replace(/\s+/g, ' ').trim())
      .filter(Boolean),
  );
}

export interface Span {
  start: number;
  end: number;
}

/**
 * Where the sentences of `text[start, end)` lie, as spans that cover it but for the whitespace between them. A
 * sentence ends at `.`, `!`, `?`, `…` or `。` (and a closing quote or bracket) followed by whitespace and a capital,
 * digit or opening quote, or by a line break; a full stop after a common abbreviation or an initial ("U.S.",
 * "Dr.", "J. R.") ends nothing.
 */
export function sentenceSpans(text: string, start = 0, end = text.length): Span[] {
  const spans: Span[] = [];
  const region = text.slice(start, end);
  let sentenceStart = region.search(/\S/);
  if (sentenceStart < 0) return spans;
  for (const match of region.matchAll(/[.!?…。]["”’)\]]*(\s+)/gu)) {
    const punctuationEnd = match.index + match[0].length - match[1]!.length;
    const next = region.slice(match.index + match[0].length, match.index + match[0].length + 2);
    if (!/\n/.test(match[1]!) && !/^["“‘([]?[\p{Lu}\p{N}]/u.test(next)) continue;
    if (region[match.index] === '.' && isAbbreviation(region.slice(sentenceStart, match.index))) continue;
    if (match.index + match[0].length >= region.length) break;
    spans.push({ start: start + sentenceStart, end: start + punctuationEnd });
    sentenceStart = match.index + match[0].length;
  }
  const last = region.slice(sentenceStart).trimEnd();
  if (last) spans.push({ start: start + sentenceStart, end: start + sentenceStart + last.length });
  return spans;
}

/** The word before a full stop is an abbreviation or an initial, so the stop ends no sentence. */
function isAbbreviation(before: string): boolean {
  const lastToken = (before.match(/(\S+)$/)?.[1] ?? '').toLowerCase().replace(/^[("“]/, '');
  return abbreviations.has(lastToken) || /^\p{L}$/u.test(lastToken);
}
