/**
 * Acronyms a source defines ("the National Football League (NFL)"): a question may ask in the long form what a
 * sentence says by the acronym ("NFL Commissioner Roger Goodell"), or the other way round; and a question may ask
 * what an acronym stands for, which the sentence defining it answers.
 */
import { term, words, wordsAsWritten } from '../text/words.ts';
import type { Candidate } from './candidates.ts';
import { isStopWord } from './content-words.ts';

/** An acronym: two to eight capitals, with a plural's "s" ("LANs"), as a pattern's source. */
const ACRONYM = String.raw`(\p{Lu}{2,8})s?`;
/** An acronym in brackets: "(MVP)", "(LANs)". Whether the words before spell it is `spelledOut`'s. */
const BRACKETED_CAPITALS = new RegExp(String.raw`\(${ACRONYM}\)`, 'gu');

/** How far before the brackets a long form is looked for: a dozen words or so. */
const LONG_FORM_CHARACTERS = 120;

/**
 * The acronyms a text defines ("Most Valuable Player (MVP)", or a glossary's "EOI – Refers to Expression of
 * Interest"), each as its term and the terms of its long form.
 */
export function acronymsDefined(text: string): Map<string, string[]> {
  const defined = new Map<string, string[]>();
  const glossed = GLOSSARY_LINE.exec(text);
  if (glossed) addGlossed(defined, glossed[1]!, glossed[2]!);
  if (!text.includes('(')) return defined;
  for (const match of text.matchAll(BRACKETED_CAPITALS)) {
    const acronym = readAcronym(match[1]!);
    if (acronym === undefined) continue;
    const before = wordsAsWritten(text.slice(Math.max(0, match.index - LONG_FORM_CHARACTERS), match.index));
    const longForm = spelledOut(before, acronym) ?? spelledBeforeNoun(before, acronym);
    if (longForm !== undefined) defined.set(term(acronym), longFormTerms(longForm));
  }
  for (const [, capitals, bracketed] of text.matchAll(BRACKETED_LONG_FORM)) {
    const acronym = readAcronym(capitals!);
    const longForm = wordsAsWritten(bracketed!);
    if (
      acronym !== undefined &&
      WORDS_ONLY.test(bracketed!) &&
      longForm.length > 1 &&
      capitalsOf(bracketed!) === acronym
    )
      defined.set(term(acronym), longFormTerms(longForm));
  }
  return defined;
}

/**
 * An acronym with its long form in brackets after it, a few words whose capitals spell it: "STRING (STRIcly
 * Non-nested hysteresis Gap)". The long form's own capitals are what it is spelled by, as its writer marked them.
 */
const BRACKETED_LONG_FORM = new RegExp(
  String.raw`(?<![\p{L}\p{N}])${ACRONYM}\s*\(([^()]{3,${LONG_FORM_CHARACTERS}})\)`,
  'gu',
);

/** A long form is words: "(99.3 FM)" after "WBT-FM" is its frequency. */
const WORDS_ONLY = /^[\p{L}\s'’-]+$/u;

/** A text's capitals, in order, as `readAcronym` reads an acronym's. */
function capitalsOf(text: string): string {
  return words((text.match(/\p{Lu}/gu) ?? []).join('')).join('');
}

/**
 * An acronym's capitals as `words` reads them: lower-cased, without diacritics ("ÉU" as "eu"), as the words of its
 * long form are read; none when spelled as a function word ("US", "IT", "WHO"), a term of no sentence.
 */
function readAcronym(capitals: string): string | undefined {
  const acronym = words(capitals).join('');
  return isStopWord(acronym) ? undefined : acronym;
}

/** A glossary's line: an acronym, a dash, a colon or "means", and what it stands for: "EOI – Refers to Expression of...". */
const GLOSSARY_LINE = new RegExp(
  String.raw`^\s*${ACRONYM}\s*(?:[–—:=-]|\s(?:means|stands\s+for))\s*(.+)`,
  'u',
);
/** How far into a glossary's line its long form is looked for. */
const GLOSSED_WORDS = 12;

/** The acronym a glossary's line defines, when words of its first dozen spell it ("...to Expression of Interest"). */
function addGlossed(defined: Map<string, string[]>, capitals: string, gloss: string): void {
  const acronym = readAcronym(capitals);
  if (acronym === undefined) return;
  const glossed = wordsAsWritten(gloss).slice(0, GLOSSED_WORDS);
  for (let end = 1; end <= glossed.length; end++) {
    const longForm = spelledOut(glossed.slice(0, end), acronym);
    if (longForm === undefined) continue;
    defined.set(term(acronym), longFormTerms(longForm));
    return;
  }
}

/**
 * The words just before an acronym whose initials spell it, last letter first; function words between them
 * ("Food and Drug Administration") are passed over. A word may give the acronym its run of capitals: "SATurated" in
 * "Electromechanically SATurated Cluster (ESATC)".
 */
function spelledOut(before: string[], letters: string): string[] | undefined {
  const longForm: string[] = [];
  let letter = letters.length - 1;
  for (let index = before.length - 1; index >= 0 && letter >= 0; index--) {
    const word = before[index]!;
    const capitals = CAPITALS_OPENING.exec(word)?.[0].toLowerCase() ?? '';
    const taken =
      capitals.length > 1 && letters.slice(letter - capitals.length + 1, letter + 1) === capitals
        ? capitals.length
        : word[0]?.toLowerCase() === letters[letter]
          ? 1
          : 0;
    if (taken > 0) {
      longForm.unshift(word);
      letter -= taken;
    } else if (!isStopWord(word.toLowerCase()) || longForm.length === 0) return undefined;
  }
  return letter < 0 ? longForm : undefined;
}

/**
 * A long form of capitalised words before a common noun the acronym leaves out: "Electromechanically SATurated
 * Cluster system (ESATC)".
 */
function spelledBeforeNoun(before: string[], letters: string): string[] | undefined {
  if (!/^\p{Ll}+$/u.test(before.at(-1) ?? '')) return undefined;
  const longForm = spelledOut(before.slice(0, -1), letters);
  return longForm?.every((word) => /^\p{Lu}/u.test(word)) ? longForm : undefined;
}

/** A long form's words as matching terms, its function words left out. */
function longFormTerms(longForm: string[]): string[] {
  return longForm
    .map((word) => word.toLowerCase())
    .filter((word) => !isStopWord(word))
    .map(term);
}

/** The capitals a word opens with, when it goes on in small letters: "SAT" of "SATurated", not of "NASA". */
const CAPITALS_OPENING = /^\p{Lu}+(?=\p{Ll})/u;

/**
 * Each candidate holding an acronym its source defines holds the long form's terms too, and one holding every term
 * of the long form holds the acronym.
 */
export function withAcronyms(candidates: Candidate[]): Candidate[] {
  const bySource = new Map<string, Map<string, string[]>>();
  for (const candidate of candidates) {
    const defined = acronymsDefined(candidate.sentence);
    if (defined.size === 0) continue;
    const known = bySource.get(candidate.passage.sourceId) ?? new Map<string, string[]>();
    for (const [acronym, longForm] of defined) known.set(acronym, longForm);
    bySource.set(candidate.passage.sourceId, known);
  }
  for (const candidate of candidates) {
    for (const [acronym, longForm] of bySource.get(candidate.passage.sourceId) ?? []) {
      if (candidate.stems.has(acronym)) for (const longTerm of longForm) candidate.stems.add(longTerm);
      else if (longForm.every((longTerm) => candidate.stems.has(longTerm))) candidate.stems.add(acronym);
    }
  }
  return candidates;
}

/**
 * "What does GCSR stand for?", "What is NFL short for?", "What does the acronym MVP mean in this paper?", "In the
 * paper, what is STRING an abbreviation of?": the word asked about, which must be an acronym (`ACRONYM`, in its own
 * case). Not "What does NASA mean to you?".
 */
const QUOTED_WORD = String.raw`["'“‘]?(\S+?)["'”’]?`;
/** "In the microrobot paper, what...", "According to the report, what...": where the question asks. */
const ASKED_WHERE = String.raw`(?:(?:in|according\s+to|within)\s[^,?]{1,80},\s*)?`;
const ACRONYM_ASKED = [
  new RegExp(
    String.raw`^\W*${ASKED_WHERE}what\s+(?:does|do|did)\s+(?:the\s+)?(?:acronym\s+|abbreviation\s+)?${QUOTED_WORD}\s+(?:stand\s+for|mean)(?:\s+(?:in|on|within)\s[^?]*)?\W*$`,
    'iu',
  ),
  new RegExp(
    String.raw`^\W*${ASKED_WHERE}what\s+is\s+${QUOTED_WORD}\s+(?:short\s+for|an?\s+(?:acronym|abbreviation)\s+(?:of|for))(?:\s+(?:in|on|within)\s[^?]*)?\W*$`,
    'iu',
  ),
];
const WHOLE_ACRONYM = new RegExp(`^${ACRONYM}$`, 'u');
/** Such a question is short: a longer message is not read (the patterns above would cost time on it). */
const LONGEST_QUESTION = 200;

/** The acronym a question asks the long form of, when it asks so. */
export function acronymAsked(message: string): string | undefined {
  if (message.length > LONGEST_QUESTION) return undefined;
  for (const pattern of ACRONYM_ASKED) {
    const asked = pattern.exec(message)?.[1];
    if (asked !== undefined && WHOLE_ACRONYM.test(asked)) return asked;
  }
  return undefined;
}

/** Whether a text defines the acronym: the words before it in brackets spell it (`acronymsDefined`). */
export function definesAcronym(text: string, acronym: string): boolean {
  return acronymsDefined(text).has(term(words(acronym).join('')));
}
