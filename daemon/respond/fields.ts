/**
 * The lines of a form or a specification filling in a field, and the field a question asks for: "How many copies of
 * the application does the funder want?" asks for the form's "Number of Copies: 9", and "What keywords describe the
 * project?" for its "Keywords (enter up to 5) 1)Online environments, 2)Design research, ...".
 */
import { isStopWord as isFunctionWord, term, wordCount, words } from '../text/words.ts';
import { type Candidate, labelledValue } from './candidates.ts';
import { contentStems, isStopWord } from './content-words.ts';
import type { Question } from './question.ts';

/** "How many copies...", "And how much funding...": the thing a question opening with its count counts. */
const COUNTED = /^\W*(?:[\p{L}'’]+\s+){0,2}?how\s+(?:many|much)\s+([\p{L}-]+)/iu;

/** What a label counting a thing says beside it: "Number of Copies". */
const COUNT_WORDS = new Set(['number', 'amount', 'total', 'count'].map(term));

/**
 * A field: its label, then its value after a colon or an equals sign ("Number of Copies: 9"), or on the next line
 * (`labelledValue`). A section's number may lead it ("1.4 ..."), and a note in brackets follow the label.
 */
const FIELD = /^\W*(?:\d+(?:\.\d+)*\.?\s*)?([^:=()]{1,80}?)\s*(?:\([^)]*\)\s*)?[:=]\s*(\S.*)?$/su;
/**
 * A field whose note in brackets ends the label, and whose value is a list of three or more items: "Keywords (enter
 * up to 5) 1)Online environments, 2)Design research, 3)Pedagogy".
 */
const NOTED_LIST_FIELD =
  /^\W*(?:\d+(?:\.\d+)*\.?\s*)?([^:=()]{1,80}?)\s*\([^)]*\)\s*(([^,]+)(?:,[^,]+){2,})$/su;

/**
 * A field's line is short: a label of a few words and a value of a few more. Longer lines are not read, which also
 * bounds the time the patterns above take.
 */
const FIELD_LINE_CHARACTERS = 240;
/** A label is a few words: a sentence with a colon in it names no field ("Note the following: ..."). */
const LABEL_WORDS = 5;
/**
 * A field's value is a few words, a name, a number or a list: a changelog's "Language detection: Tika can now
 * detect Belarusian, Catalan, ..." says what changed under a topic, for every release.
 */
const VALUE_WORDS = 12;

/**
 * For an open question naming the thing it asks for ("how many copies", "which keywords"), whether a sentence is a
 * line filling in that field: its label holds the thing and nothing but words of the question ("Funding Body" for
 * "Which funding body...") and a counting label's ("Number of"), and its value is a few words. "Add Entry: Takes you
 * straight to the form" is no field of entries. Undefined when the question names no such thing.
 */
export function fieldAsked(question: Question): ((candidate: Candidate) => boolean) | undefined {
  const field = thingAsked(question);
  if (field === undefined) return undefined;
  return (candidate) => {
    const label = fieldLabel(candidate);
    return (
      label?.includes(field) === true &&
      label.every((stem) => question.terms.has(stem) || COUNT_WORDS.has(stem))
    );
  };
}

/** The stem of what an open question names as its answer: the thing it counts, or its "what"/"which" word. */
function thingAsked(question: Question): string | undefined {
  if (!question.open) return undefined;
  const counted = COUNTED.exec(question.text)?.[1]?.toLowerCase();
  // "How many" asks a number of things, but "how much does it weigh" names none.
  if (counted !== undefined) return isStopWord(counted) ? undefined : term(counted);
  return question.focus;
}

/** The stems of a field's label, when a sentence is a field with a value. */
function fieldLabel(candidate: Candidate): string[] | undefined {
  const { sentence } = candidate;
  if (sentence.length > FIELD_LINE_CHARACTERS) return undefined;
  const [, label, value] = FIELD.exec(sentence) ?? notedList(sentence) ?? [];
  if (label === undefined || wordCount(label) > LABEL_WORDS) return undefined;
  const valueWords = wordCount(value ?? labelledValue(candidate) ?? '');
  return valueWords > 0 && valueWords <= VALUE_WORDS ? contentStems(label) : undefined;
}

/**
 * A field with a note and a list (`NOTED_LIST_FIELD`), whose first item holds no function word: items of a list
 * name things. Not a sentence's subject and what it says of it ("One episode of Doctor Who (The Infinite Quest) was
 * released on VCD, with the others on DVD, tape and disc.").
 */
function notedList(sentence: string): [string, string, string] | undefined {
  const [whole, label, list, firstItem] = NOTED_LIST_FIELD.exec(sentence) ?? [];
  if (whole === undefined || label === undefined || list === undefined || firstItem === undefined)
    return undefined;
  return words(firstItem).some(isFunctionWord) ? undefined : [whole, label, list];
}
