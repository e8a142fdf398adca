/**
 * Acronyms a source defines ("the National Football League (NFL)"): a question may ask in the long form what a
 * sentence says by the acronym ("NFL Commissioner Roger Goodell"), or the other way round; and a question may ask
 * what an acronym stands for, which the sentence defining it answers.
 */
import { term, words } from '../text/words.ts';
import type { Candidate } from './candidates.ts';
import { isStopWord } from './content-words.ts';

/** Capitals in brackets: "(MVP)", "(LANs)". Whether the words before spell them is `spelledOut`'s. */
const BRACKETED_CAPITALS = /\((\p{Lu}{2,8})s?\)/gu;

/** How far before the brackets a long form is looked for: a dozen words or so. */
const LONG_FORM_CHARACTERS = 120;

/** The acronyms a text defines ("Most Valuable Player (MVP)"), each as its term and the terms of its long form. */
export function acronymsDefined(text: string): Map<string, string[]> {
  const defined = new Map<string, string[]>();
  if (!text.includes('(')) return defined;
  for (const match of text.matchAll(BRACKETED_CAPITALS)) {
    // As `words` reads it: lower-cased, without diacritics ("ÉU" as "eu"), as the words before it are read.
    const acronym = words(match[1]!).join('');
    // An acronym spelled as a function word ("US", "IT", "WHO") is a term of no sentence.
    if (isStopWord(acronym)) continue;
    const before = words(text.slice(Math.max(0, match.index - LONG_FORM_CHARACTERS), match.index));
    const longForm = spelledOut(before, acronym);
    if (longForm !== undefined)
      defined.set(term(acronym), longForm.filter((word) => !isStopWord(word)).map(term));
  }
  return defined;
}

/**
 * The words just before an acronym whose initials spell it, last letter first; function words between them
 * ("Food and Drug Administration") are passed over.
 */
function spelledOut(before: string[], letters: string): string[] | undefined {
  const longForm: string[] = [];
  let letter = letters.length - 1;
  for (let index = before.length - 1; index >= 0 && letter >= 0; index--) {
    const word = before[index]!;
    if (word[0] === letters[letter]) {
      longForm.unshift(word);
      letter--;
    } else if (!isStopWord(word) || longForm.length === 0) return undefined;
  }
  return letter < 0 ? longForm : undefined;
}

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
 * "What does GCSR stand for?", "What is NFL short for?", "What does the acronym MVP mean?": the acronym asked about,
 * as written (two to ten letters or digits, two capitals at least).
 */
const ACRONYM_ASKED = [
  /^\W*what\s+(?:does|do|did)\s+(?:the\s+)?(?:acronym\s+|abbreviation\s+)?["'“‘]?([\p{L}\d]{2,10})["'”’]?\s+(?:stand\s+for|mean)\b/iu,
  /^\W*what\s+is\s+["'“‘]?([\p{L}\d]{2,10})["'”’]?\s+(?:short\s+for|an?\s+(?:acronym|abbreviation)\s+(?:of|for))\b/iu,
];

/** The acronym a question asks the long form of, when it asks so. */
export function acronymAsked(message: string): string | undefined {
  for (const pattern of ACRONYM_ASKED) {
    const acronym = pattern.exec(message)?.[1];
    if (acronym !== undefined && (acronym.match(/\p{Lu}/gu)?.length ?? 0) >= 2) return acronym;
  }
  return undefined;
}

/** Whether a text defines the acronym: the words before it in brackets spell it (`acronymsDefined`). */
export function definesAcronym(text: string, acronym: string): boolean {
  return acronymsDefined(text).has(term(words(acronym).join('')));
}
