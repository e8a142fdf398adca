/**
 * The words that count when a question is matched to sentences: content words, less the words a question frames
 * its ask with.
 */
import { isStopWord as isFunctionWord, term, withCompoundNumerals, words } from '../text/words.ts';

/** Words a question frames its ask with ("what is it called", "which kind"), which no answer needs to contain. */
const QUESTION_FRAME = new Set(
  'whose s t name named called many much kind type one ones according'.split(' '),
);

/**
 * What is left of a contraction once its apostrophe parts it ("I'm", "you're", "I've", "we'll", "I'd"): no word, but
 * "m", "re", "ve", "ll" and "d" alone are ("vitamin D", "Renewable Energy (RE)"), so only these are dropped.
 */
const CONTRACTED = /(?<=\p{L})['’](?:m|re|ve|ll|d)\b/giu;

export function isStopWord(word: string): boolean {
  return isFunctionWord(word) || QUESTION_FRAME.has(word);
}

/** A version or a decimal ("4.0.0", "0.4", "1.5"): one term, whose parts alone would meet other numbers. */
const DOTTED_NUMBER = /\d+(?:\.\d+)+/g;

/**
 * Content words as matching terms (`term` meets an irregular verb's past with its other forms), a dotted number
 * whole: "Tika 0.4" is not "4.0.0". `words` itself splits it, as the embedder's stored vectors were made.
 */
export function contentStems(text: string): string[] {
  const stems: string[] = [];
  let from = 0;
  for (const match of text.matchAll(DOTTED_NUMBER)) {
    stems.push(...wordStems(text.slice(from, match.index)), match[0]);
    from = match.index + match[0].length;
  }
  stems.push(...wordStems(text.slice(from)));
  return stems;
}

/**
 * An abbreviation's plural ("IPs", "IDs"), read as the abbreviation: lower-cased, "ips" is too short for `stem` to
 * take its "s" off, and a three-letter word ending in "s" is as often no plural ("gas", "yes").
 */
const ABBREVIATION_PLURAL = /(?<![\p{L}\p{N}_])(\p{Lu}{2,})s(?![\p{L}\p{N}_])/gu;

/**
 * A word with a letter before a hyphen ("e-mail", "X-ray"), as one word: it is spelled without the hyphen as often
 * ("email"), and alone the letter meets nothing.
 */
const LETTER_PREFIXED = /(?<![\p{L}\p{N}])(\p{L})-(\p{L}{2,})/gu;

/**
 * "By Friday at the latest": an idiom saying by when, not which is the newest (words.ts reads "newest" as
 * "latest").
 */
const AT_THE_LATEST = /\bat\s+the\s+(?:latest|earliest)\b/gi;

function wordStems(text: string): string[] {
  return words(
    withCompoundNumerals(text)
      .replace(CONTRACTED, '')
      .replace(AT_THE_LATEST, '')
      .replace(ABBREVIATION_PLURAL, '$1')
      .replace(IDENTIFIER, withParts)
      .replace(LETTER_PREFIXED, '$1$2'),
  )
    .filter((word, index, all) => !isStopWord(word) || namesNamesake(word, all[index + 1]))
    .map(term);
}

/**
 * "Named after" and "named for" ask who or what a thing takes its name from: the sentence answering says "named
 * after" too ("Who was Stevens Pass named after?"), so "named" is no frame there.
 */
function namesNamesake(word: string, next: string | undefined): boolean {
  return word === 'named' && (next === 'after' || next === 'for');
}

/**
 * An identifier in camel case whose parts are words: lower-case first with two letters or more before its first
 * capital ("extractPreviews", not "eBay", "iPhone" or "jQuery"), or of three capitalised parts or more
 * ("CacheMemoryBudget", not "McDonald" or "YouTube"). One with a run of capitals ("XMLHttpRequest") stays whole.
 */
const IDENTIFIER =
  /(?<![\p{L}\p{N}])(?:\p{Ll}{2,}(?:\p{Lu}\p{Ll}+)+|\p{Lu}\p{Ll}+(?:\p{Lu}\p{Ll}+){2,})(?![\p{L}\p{N}])/gu;

/** The identifier, then its parts: "CacheMemoryBudget Cache Memory Budget" holds the words a question asks in. */
function withParts(identifier: string): string {
  return `${identifier} ${identifier.replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')}`;
}
