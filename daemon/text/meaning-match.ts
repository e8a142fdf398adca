/**
 * How much of what a question asks a text says in other words: "concern" for "problem", "prevent" for "protect
 * against". The reranker weighs it beside the words a text holds exactly.
 */

import { rowSimilarity, wordVectors } from './word-vectors.ts';
import { isStopWord, term, words } from './words.ts';

/** A content word of the question, with the row of its vector. */
export interface AskedWord {
  term: string;
  row: number;
  weight: number;
  /**
   * Its similarity to each row met so far, by row (NaN: not yet computed): the reranker weighs fifty passages,
   * whose words repeat (Zipf's law), so most similarities are looked up rather than computed, and an array
   * indexed by row looks up several times faster than a map.
   */
  similarities: Float64Array;
}

/**
 * Below this cosine two GloVe words are unrelated as often as not ("river" and "money" score about 0.25); a match
 * counts for its similarity above it, scaled so an identical meaning counts 1. Floors of 0.2 and 0.45 fitted no
 * better (SQuAD held-out hit@1 0.874 and 0.872 against 0.873).
 */
const UNRELATED = 0.3;

/** The question's content words that have a vector, one per term, each weighing what `weight` gives its term. */
export function askedWords(text: string, weight: (term: string) => number): AskedWord[] {
  const vectors = wordVectors();
  const asked = new Map<string, AskedWord>();
  for (const word of words(text)) {
    if (isStopWord(word)) continue;
    const stem = term(word);
    const row = vectors.rows.get(word);
    if (row === undefined || asked.has(stem)) continue;
    const termWeight = weight(stem);
    if (termWeight > 0) {
      const similarities = new Float64Array(vectors.scales.length).fill(Number.NaN);
      asked.set(stem, { term: stem, row, weight: termWeight, similarities });
    }
  }
  return [...asked.values()];
}

/** The word-vector rows of a text's content words, each once: what `nearness` reads of it. */
export function vectorRows(textWords: Iterable<string>): Int32Array {
  const vectors = wordVectors();
  const rows = new Set<number>();
  for (const word of textWords) {
    if (isStopWord(word)) continue;
    const row = vectors.rows.get(word);
    if (row !== undefined) rows.add(row);
  }
  return Int32Array.from(rows);
}

/**
 * How near in meaning each asked word comes to the text's nearest word (given by `vectorRows`), in the asked
 * words' order: from 0 (unrelated) to 1 (a word of the same meaning, or the word itself).
 */
export function nearness(asked: readonly AskedWord[], rows: Int32Array): number[] {
  const vectors = wordVectors();
  return asked.map((word) => {
    const { similarities } = word;
    let nearest = UNRELATED;
    for (const row of rows) {
      let similarity = similarities[row]!;
      if (Number.isNaN(similarity)) {
        similarity = rowSimilarity(vectors, word.row, row);
        similarities[row] = similarity;
      }
      if (similarity > nearest) nearest = similarity;
    }
    return (nearest - UNRELATED) / (1 - UNRELATED);
  });
}

/**
 * The weight of the asked words a text lacks but says in other words, each counted by its `nearness`. Words the
 * text `holds` count nothing here: they are matched exactly.
 */
export function saidOtherwise(
  asked: readonly AskedWord[],
  near: readonly number[],
  holds: (term: string) => boolean,
): number {
  let sum = 0;
  asked.forEach((word, index) => {
    if (!holds(word.term)) sum += word.weight * near[index]!;
  });
  return sum;
}
