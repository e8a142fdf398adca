/**
 * British and American spellings of one word: "colour" and "color", "organise" and "organize", "centre" and
 * "center", "travelled" and "traveled". Documents and questions are written in either, and neither the light stemmer
 * nor LanceDB's English tokenizer joins them: "Which colours should it avoid?" found no slide saying "Avoid using
 * red, yellow, and orange" under "Uses calming colors". Matching terms take the American form (`americanSpelling`);
 * a full-text search is sent both (`withOtherSpellings`).
 *
 * The rules are endings, not a word list. One may turn a word that is not a variant into a non-word ("contour" into
 * "contor", "genre" into "gener"), which costs nothing as long as no other word is spelled so.
 */

/** What follows the variant part of a word: its inflections and derivations, the bare word first. */
const OUR_ENDINGS = '(|s|ed|ing|ite|ites|ful|less|able|er|ers|ist|ists)';
const ISE_ENDINGS = '(e|es|ed|ing|ation|ations|er|ers)';
/**
 * The bare word too, so that "install" meets "installed" when both lose an "l" ("instal"), and "controlled" meets
 * "control" as "travelled" does "travel"; and the nouns, "cancellation" and "instalment" as "cancelation" and
 * "installment".
 */
const LL_ENDINGS = '(|s|ed|ing|er|ers|ation|ations|ment|ments)';

/** A way one spelling differs from the other: a word holding `holds` and matching `pattern` is spelled so. */
interface SpellingRule {
  /** Letters every word the pattern matches holds: every word of every passage is read, most by this alone. */
  holds: string;
  pattern: RegExp;
  spell: (...parts: string[]) => string;
}

const BRITISH_TO_AMERICAN: readonly SpellingRule[] = [
  // "colour", "favourite", "labourer": three letters at least before, so "four", "hour" and "flour" stay.
  {
    holds: 'our',
    pattern: new RegExp(`^([a-z]{3,})our${OUR_ENDINGS}$`),
    spell: (stem, ending) => `${stem}or${ending}`,
  },
  // "organise", "organisation", "analyse": "wise", "rise" and "noise" are too short to be read so.
  {
    holds: 's',
    pattern: new RegExp(`^([a-z]{3,})([iy])s${ISE_ENDINGS}$`),
    spell: (stem, letter, ending) => `${stem}${letter}z${ending}`,
  },
  // "centre", "metres", "fibre": a consonant before "re", so "fire" and "store" stay; not "-red" ("hundred").
  {
    holds: 're',
    pattern: /^([a-z]{2,}[b-df-hj-np-tv-z])re(|s)$/,
    spell: (stem, ending) => `${stem}er${ending}`,
  },
  // "travelled", "modelling", "labelled": four letters before, the last a vowel, so "called" and "spelling" stay.
  {
    holds: 'll',
    pattern: new RegExp(`^([a-z]{3,}[aeiou])ll${LL_ENDINGS}$`),
    spell: (stem, ending) => `${stem}l${ending}`,
  },
];

const AMERICAN_TO_BRITISH: readonly SpellingRule[] = [
  {
    holds: 'or',
    pattern: new RegExp(`^([a-z]{3,})or${OUR_ENDINGS}$`),
    spell: (stem, ending) => `${stem}our${ending}`,
  },
  {
    holds: 'z',
    pattern: new RegExp(`^([a-z]{3,})([iy])z${ISE_ENDINGS}$`),
    spell: (stem, letter, ending) => `${stem}${letter}s${ending}`,
  },
  {
    holds: 'er',
    pattern: /^([a-z]{2,}[b-df-hj-np-tv-z])er(|s)$/,
    spell: (stem, ending) => `${stem}re${ending}`,
  },
  // Only inflected: a bare word ending in "l" ("general", "animal") is seldom spelled "-ll" anywhere.
  {
    holds: 'l',
    pattern: /^([a-z]{3,}[aeiou])l(ed|ing|er|ers)$/,
    spell: (stem, ending) => `${stem}ll${ending}`,
  },
];

/** A lower-cased word in its American spelling, or the word itself when it has no other. */
export function americanSpelling(word: string): string {
  return word.length < 5 ? word : (respelled(word, BRITISH_TO_AMERICAN) ?? word);
}

/** The British spelling a lower-cased American one may have been written in, or undefined. */
function britishSpelling(word: string): string | undefined {
  return word.length < 5 ? undefined : respelled(word, AMERICAN_TO_BRITISH);
}

function respelled(word: string, rules: readonly SpellingRule[]): string | undefined {
  for (const { holds, pattern, spell } of rules) {
    if (!word.includes(holds)) continue;
    const match = pattern.exec(word);
    if (match !== null) return spell(...match.slice(1));
  }
  return undefined;
}

/**
 * The text followed by the other spellings of its words, for a full-text search, which then finds a passage
 * written in either. A spelling no passage holds matches nothing and weighs nothing. The words are the caller's
 * reading of the text (text/words.ts `words`), which cannot be imported here: words.ts reads this file.
 */
export function withOtherSpellings(text: string, words: readonly string[]): string {
  const others = new Set<string>();
  for (const word of words) {
    const american = americanSpelling(word);
    if (american !== word) others.add(american);
    const british = britishSpelling(american);
    if (british !== undefined && british !== word) others.add(british);
  }
  return others.size === 0 ? text : `${text} ${[...others].join(' ')}`;
}
