/** Small English text tools for the offline responder: words, stems, stop words and sentences. */

const stopWords = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below between ' +
    'both but by can could did do does doing down during each few for from further had has have having he her here ' +
    'hers herself him himself his how i if in into is it its itself just me more most my myself no nor not now of off ' +
    'on once only or other our ours ourselves out over own same she should so some such than that the their theirs ' +
    'them themselves then there these they this those through to too under until up very was we were what when where ' +
    'which while who whom whose why will with would you your yours yourself yourselves s t ' +
    'name named called many much kind type one ones use used according'
  ).split(' '),
);

/** Question words and phrasings that never appear in an answer sentence. */
const questionWords = new Set(['what', 'which', 'who', 'whom', 'whose', 'when', 'where', 'why', 'how']);

export function isStopWord(word: string): boolean {
  return stopWords.has(word) || questionWords.has(word);
}

/** Lower-cased runs of letters and digits; punctuation separates words. */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** A light suffix-stripping stem, so that "teams" meets "team" and "played" meets "playing". */
export function stem(word: string): string {
  // "50th" and "50" name the same thing in questions and answers alike.
  if (/^\d/.test(word)) return word.replace(/^(\d+)(?:st|nd|rd|th|s)$/, '$1');
  if (word.length <= 3) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('ing') && word.length > 5) return word.slice(0, -3);
  if (word.endsWith('ed') && word.length > 4) return word.slice(0, -2);
  if (word.endsWith('es') && word.length > 4 && /(ss|sh|ch|x|z)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') && !word.endsWith('is'))
    return word.slice(0, -1);
  return word;
}

/** Stems of the content words (no stop words), in order, duplicates kept. */
export function contentStems(text: string): string[] {
  return words(text)
    .filter((word) => !isStopWord(word))
    .map(stem);
}

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

export function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}
