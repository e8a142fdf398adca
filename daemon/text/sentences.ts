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
 * separators become semicolons. A paragraph whose every line is a `name: value` record (headers, JSON leaves)
 * is read line by line too. Lines of other paragraphs stay joined: a PDF breaks lines mid-sentence.
 */
function blocks(text: string): string[] {
  const result: string[] = [];
  let paragraph: string[] = [];
  const endParagraph = () => {
    if (paragraph.length > 1 && paragraph.every((line) => RECORD_LINE.test(line))) result.push(...paragraph);
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
