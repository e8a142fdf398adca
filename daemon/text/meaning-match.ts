/**
 * How much of what a question asks a text says in other words: "concern" for "problem", "prevent" for "protect
 * against". The responder and the reranker weigh it beside the words a text holds exactly.
 */

import { rowSimilarity, type WordVectors, wordVectors } from './word-vectors.ts';
import { isStopWord, term, words } from './words.ts';

/** A content word of the question, with the row of its vector. */
export interface AskedWord {
  term: string;
  row: number;
  weight: number;
  /**
   * Its similarity to each text word's row met so far: the reranker weighs fifty passages, whose words repeat
   * (Zipf's law), so most similarities are looked up rather than computed.
   */
  similarities: Map<number, number>;
}

/**
 * Below this cosine two GloVe words are unrelated as often as not ("river" and "money" score about 0.3); a match
 * counts for its similarity above it, scaled so an identical meaning counts 1.
 */
const UNRELATED = 0.3;

/** The question's content words that have a vector, one per term, each weighing what `weight` gives its term. */
export function askedWords(
  text: string,
  weight: (term: string) => number,
  vectors: WordVectors = wordVectors(),
): AskedWord[] {
  const asked = new Map<string, AskedWord>();
  for (const word of words(text)) {
    if (isStopWord(word)) continue;
    const stem = term(word);
    const row = vectors.rows.get(word);
    if (row === undefined || asked.has(stem)) continue;
    const termWeight = weight(stem);
    if (termWeight > 0) asked.set(stem, { term: stem, row, weight: termWeight, similarities: new Map() });
  }
  return [...asked.values()];
}

/**
 * The weight of the asked words a text lacks but says in other words: each counts its weight times how near the
 * text's nearest word comes in meaning. Words the text `holds` count nothing here: they are matched exactly.
 */
export function nearMeaning(
  asked: readonly AskedWord[],
  holds: (term: string) => boolean,
  textWords: Iterable<string>,
  vectors: WordVectors = wordVectors(),
): number {
  const missing = asked.filter((word) => !holds(word.term));
  if (missing.length === 0) return 0;
  const rows: number[] = [];
  for (const word of textWords) {
    if (isStopWord(word)) continue;
    const row = vectors.rows.get(word);
    if (row !== undefined) rows.push(row);
  }
  let sum = 0;
  for (const word of missing) {
    let nearest = UNRELATED;
    for (const row of rows) {
      let similarity = word.similarities.get(row);
      if (similarity === undefined) {
        similarity = rowSimilarity(vectors, word.row, row);
        word.similarities.set(row, similarity);
      }
      if (similarity > nearest) nearest = similarity;
    }
    sum += (word.weight * (nearest - UNRELATED)) / (1 - UNRELATED);
  }
  return sum;
}
