/**
 * The words that count when a question is matched to sentences: content words, less the words a question frames
 * its ask with.
 */
import { isStopWord as isFunctionWord, term, words } from '../text/words.ts';

/** Words a question frames its ask with ("what is it called", "which kind"), which no answer needs to contain. */
const QUESTION_FRAME = new Set(
  'whose s t name named called many much kind type one ones according'.split(' '),
);

export function isStopWord(word: string): boolean {
  return isFunctionWord(word) || QUESTION_FRAME.has(word);
}

/** Content words as matching terms (`term` meets an irregular verb's past with its other forms). */
export function contentStems(text: string): string[] {
  return words(text)
    .filter((word) => !isStopWord(word))
    .map(term);
}
