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

/**
 * Splits Markdown-ish text into blocks: paragraphs, and each table row, list item or heading on its own,
 * so a table or a list is never answered as one run-on "sentence". Table rules (`|---|`) are dropped and
 * cell separators become semicolons.
 */
function blocks(text: string): string[] {
  const result: string[] = [];
  let paragraph: string[] = [];
  const endParagraph = () => {
    if (paragraph.length > 0) result.push(paragraph.join(' '));
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
 * Splits text into sentences: first into Markdown blocks, then at `.`, `!` or `?` followed by space and a
 * capital, digit or quote, except after common abbreviations and initials ("U.S.", "Dr.", "J. R.").
 */
export function sentences(text: string): string[] {
  return blocks(text).flatMap(proseSentences);
}

function proseSentences(text: string): string[] {
  const result: string[] = [];
  const normalised = text.replace(/\s+/g, ' ').trim();
  let start = 0;
  for (const match of normalised.matchAll(/[.!?]["”’)\]]?\s+(?=["“‘([]?[\p{Lu}\p{N}])/gu)) {
    const end = (match.index ?? 0) + 1;
    const before = normalised.slice(start, end - 1);
    const lastToken = (before.match(/(\S+)$/)?.[1] ?? '').toLowerCase().replace(/^[("“]/, '');
    if (normalised[end - 1] === '.' && (abbreviations.has(lastToken) || /^\p{L}$/u.test(lastToken))) continue;
    result.push(normalised.slice(start, (match.index ?? 0) + match[0].trimEnd().length).trim());
    start = (match.index ?? 0) + match[0].length;
  }
  const rest = normalised.slice(start).trim();
  if (rest) result.push(rest);
  return result;
}
