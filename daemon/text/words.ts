/**
 * Words, stems and stop words: the one definition ingestion (the offline embedder), retrieval and the offline
 * responder share. The embedder's vectors are stored with users' data (`offline-hash-*-v1`), so what the words,
 * stems and stop words it reads are is frozen: a change there is a new embedder id
 * (test/embed/embed-hashed-frozen.test.ts). The terms texts are matched by (`term`) are not stored.
 */

import { verbOfNoun } from './derivations.ts';
import { americanSpelling } from './spelling.ts';

/** Function words carry no topic; dropping them keeps bag-of-words vectors about content. */
const STOP_WORDS = new Set(
  `a about above after again against all am an and any are as at be because been before being below between both
but by can could did do does doing down during each few for from further had has have having he her here hers
herself him himself his how i if in into is it its itself just me more most my myself no nor not now of off on
once only or other our ours ourselves out over own same she should so some such than that the their theirs them
themselves then there these they this those through to too under until up very was we were what when where which
while who whom why will with would you your yours yourself yourselves also may might must shall upon us`.split(
    /\s+/,
  ),
);

const WORD = /[\p{L}\p{N}]+/gu;
const ASCII_WORD = /[a-z0-9]+/g;
const NOT_ASCII = /[^\0-\x7f]/;

/** Lower-cased words without diacritics, in order, stop words included. */
export function words(text: string): string[] {
  // Most text is ASCII, which has no diacritics to strip: Unicode normalisation would only cost time.
  if (!NOT_ASCII.test(text)) return text.toLowerCase().match(ASCII_WORD) ?? [];
  return withoutMarks(text).toLowerCase().match(WORD) ?? [];
}

/** The words `words` gives, in their own case: "SATurated" keeps the capitals an acronym takes from it. */
export function wordsAsWritten(text: string): string[] {
  return withoutMarks(text).match(WORD) ?? [];
}

/** A text without its diacritics: "États" as "Etats". */
function withoutMarks(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '');
}

/**
 * The words `words` gives, as spans, for callers that read character codes in place rather than slice: calls
 * `visit` with each word's source and span, the word being `source[start, end)` with ASCII letters lower-cased.
 * ASCII is scanned in place. In other text, a run between ASCII spaces that is not all ASCII goes through
 * `words`, whose Unicode steps work within such a run: an ASCII space neither decomposes, nor reorders marks,
 * nor carries the context of a final sigma.
 */
export function forEachWord(text: string, visit: (source: string, start: number, end: number) => void): void {
  if (!NOT_ASCII.test(text)) {
    visitAsciiWords(text, 0, text.length, visit);
    return;
  }
  let start = 0;
  while (start < text.length) {
    while (start < text.length && isAsciiSpace(text.charCodeAt(start))) start++;
    let end = start;
    let ascii = true;
    for (; end < text.length; end++) {
      const code = text.charCodeAt(end);
      if (isAsciiSpace(code)) break;
      if (code > 0x7f) ascii = false;
    }
    if (ascii) visitAsciiWords(text, start, end, visit);
    else for (const word of words(text.slice(start, end))) visit(word, 0, word.length);
    start = end;
  }
}

function visitAsciiWords(
  text: string,
  start: number,
  end: number,
  visit: (source: string, start: number, end: number) => void,
): void {
  let index = start;
  while (index < end) {
    while (index < end && !isAsciiLetterOrDigit(text.charCodeAt(index))) index++;
    const wordStart = index;
    while (index < end && isAsciiLetterOrDigit(text.charCodeAt(index))) index++;
    if (index > wordStart) visit(text, wordStart, index);
  }
}

/** What `ASCII_WORD` matches once the text is lower-cased. */
function isAsciiLetterOrDigit(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || (code >= 65 && code <= 90);
}

/** `\s` within ASCII. */
function isAsciiSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13);
}

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

/** A light suffix stemmer: enough to meet plurals and tenses, cheap, and never worse than no stemming by much. */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('ing') && word.length > 5) return word.slice(0, -3);
  if (word.endsWith('ed') && word.length > 4) return word.slice(0, -2);
  if (word.endsWith('es') && word.length > 4 && /(?:sh|ch|x|z|ss)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') && !word.endsWith('is')) {
    return word.slice(0, -1);
  }
  return word;
}

/**
 * Past forms of common irregular verbs and their base, which no suffix rule reaches: "wore" is to meet "wearing",
 * "found" "find". Forms that are as often other words ("left", "rose", "lay", "saw", "born") are left out.
 */
const IRREGULAR_FORMS = new Map(
  `arisen:arise arose:arise ate:eat awoke:awake beaten:beat became:become began:begin begun:begin bent:bend
bitten:bite bled:bleed blew:blow blown:blow bought:buy bred:breed broke:break broken:break brought:bring
built:build came:come caught:catch chose:choose chosen:choose dealt:deal drank:drink drawn:draw drew:draw
driven:drive drove:drive drunk:drink dug:dig eaten:eat fallen:fall fed:feed fell:fall felt:feel fled:flee
flew:fly flown:fly forbade:forbid forbidden:forbid forgave:forgive forgiven:forgive forgot:forget
forgotten:forget fought:fight found:find froze:freeze frozen:freeze gave:give given:give gone:go got:get
gotten:get grew:grow grown:grow heard:hear held:hold hid:hide hidden:hide hung:hang kept:keep knew:know
known:know laid:lay led:lead lent:lend lost:lose made:make meant:mean met:meet overthrew:overthrow
overthrown:overthrow paid:pay ran:run rang:ring ridden:ride risen:rise rode:ride rung:ring said:say sang:sing
sank:sink sat:sit seen:see sent:send shaken:shake shone:shine shook:shake shot:shoot shrank:shrink slept:sleep
slid:slide sold:sell sought:seek spent:spend spoke:speak spoken:speak sprang:spring spun:spin stole:steal
stolen:steal stood:stand strove:strive struck:strike stuck:stick sung:sing sunk:sink swam:swim swept:sweep
swore:swear sworn:swear swum:swim taken:take taught:teach thought:think threw:throw thrown:throw told:tell
took:take tore:tear torn:tear understood:understand undertaken:undertake undertook:undertake went:go
withdrawn:withdraw withdrew:withdraw woke:wake woken:wake won:win wore:wear worn:wear written:write
wrote:write`
    .split(/\s+/)
    .map((pair) => pair.split(':') as [string, string]),
);

/** "tried", "applied", "married"; not "died" nor "tied", whose base ends in "ie". */
const PAST_OF_Y_VERB = /^\p{L}{2,}ied$/u;

/**
 * The key words are matched by when comparing texts: a number written as a word as its digits (`NUMERALS`); else
 * their stem without a final "e", so that "release", "released" and "releases" meet, as "license" and "licensed"
 * do (`stem` alone cannot change: the embedder's stored vectors are made of it), and without a doubled final
 * consonant (`DOUBLED_ENDING`); an irregular verb's past forms as its base, and a past in "-ied" as its base in "-y"
 * (`PAST_OF_Y_VERB`); a British spelling as the American one (spelling.ts); a noun made from a verb as the verb
 * (derivations.ts).
 */
export function term(word: string): string {
  const numeral = NUMERALS.get(word);
  if (numeral !== undefined) return numeral;
  const spelled = IRREGULAR_FORMS.get(word) ?? EXTREMES.get(word) ?? americanSpelling(word);
  // `stem` leaves "tried" as "tri", where "tries" is "try".
  const inflected =
    spelled.endsWith('ied') && PAST_OF_Y_VERB.test(spelled) ? `${spelled.slice(0, -3)}y` : stem(spelled);
  const stemmed = verbOfNoun(inflected);
  if (/\d/.test(stemmed) || stemmed.length <= 3) return stemmed;
  if (stemmed.endsWith('e')) return stemmed.slice(0, -1);
  return stemmed.replace(DOUBLED_ENDING, '$1');
}

/**
 * The highest and the lowest of something as the extremes they are: "the highest voltage" is "12V maximum"; and the
 * newest as the latest, the one extreme of time ("the newest release" is the "latest version 3.5"). Not the other
 * superlatives, which would meet each other too ("the largest component" is not "the greatest empire").
 */
const EXTREMES = new Map([
  ['highest', 'maximum'],
  ['maximal', 'maximum'],
  ['lowest', 'minimum'],
  ['minimal', 'minimum'],
  ['newest', 'latest'],
]);

/** Numbers written as words, their values by place: "one" is 1, "twenty" 20. */
const UNITS_AND_TEENS =
  `one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen
sixteen seventeen eighteen nineteen`.split(/\s+/);
const TENS = 'twenty thirty forty fifty sixty seventy eighty ninety'.split(' ');

function numberValue(word: string): number {
  const units = UNITS_AND_TEENS.indexOf(word);
  return units >= 0 ? units + 1 : 20 + 10 * TENS.indexOf(word);
}

/**
 * Numbers written as words, as their digits: "five sacks in nine games" is "5 sacks in just 9 starts". Not "one",
 * which is as often no number ("one of the", "the one that").
 */
const NUMERALS = new Map(
  [...UNITS_AND_TEENS.slice(1), ...TENS].map((word): [string, string] => [word, String(numberValue(word))]),
);

/** Tens and units written out ("twenty-two", "forty one"), which `words` would part into two numbers. */
const COMPOUND_NUMERAL = new RegExp(
  String.raw`\b(${TENS.join('|')})[-\s](${UNITS_AND_TEENS.slice(0, 9).join('|')})\b`,
  'gi',
);

/** The text with each number of tens and units written out as its digits: "twenty-two" as "22". */
export function withCompoundNumerals(text: string): string {
  return text.replace(COMPOUND_NUMERAL, (_, tens: string, units: string) =>
    String(numberValue(tens.toLowerCase()) + numberValue(units.toLowerCase())),
  );
}

/**
 * A doubled final consonant, which `stem` leaves where "-ing" or "-ed" doubled it ("setting", "stopped"): as one,
 * "setting" meets "set-up". In every stem of more than three letters alike, so that no form is left apart ("add",
 * "added" and "egg" stay whole); not an "ll", "ss" or "zz", which a base ends in as often as not ("call", "pass").
 */
const DOUBLED_ENDING = /([b-df-hj-km-np-rtv-y])\1$/;

/** Content words as matching terms, in order, duplicates kept: the unit of lexical scoring. */
export function contentTerms(text: string): string[] {
  return words(withCompoundNumerals(text))
    .filter((word) => !isStopWord(word))
    .map(term);
}

/** A term's first letters that its other forms share where the light stemmer does not meet them. */
const VARIANT_PREFIX = 5;

/**
 * Whether the terms hold another form of a term than `term` itself meets ("interceptions" of "intercepted",
 * "changes" of "changelog"): a term beginning with its first five letters, for a term longer than that.
 */
export function hasVariant(term: string, terms: Iterable<string>): boolean {
  if (term.length <= VARIANT_PREFIX) return false;
  const prefix = term.slice(0, VARIANT_PREFIX);
  for (const other of terms) if (other.startsWith(prefix)) return true;
  return false;
}

/** Whitespace-separated tokens, as a reader counts the words of a reply. */
export function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}
