/** The candidate sentences ranked by the sentence model. */
import type { Candidate } from './candidates.ts';
import type { Question } from './question.ts';
import { featureRows, SENTENCE_FEATURES } from './sentence-features.ts';
import { type SentenceScorer, sentenceScore } from './sentence-model.ts';
import { SENTENCE_WEIGHTS } from './sentence-weights.ts';
import type { ContextPassage } from './types.ts';

/**
 * A candidate sentence with its score: the sentence model's logit, and the share of the question's weight it holds
 * with what it leans on (a slide's bullet "Priced at $2,675.00" under the title naming the product asked about).
 */
export interface Finding {
  candidate: Candidate;
  score: number;
  coverage: number;
}

const COVERAGE = SENTENCE_FEATURES.indexOf('coverage');
const PREVIOUS_COVERAGE = SENTENCE_FEATURES.indexOf('previousCoverage');

/**
 * Every candidate sentence, best first. The score is the sentence model (sentence-model.ts) over what makes a
 * sentence the answer: the question's weight it holds (alone and with its neighbours), phrases kept, holding the
 * kind of thing asked for near the question's words, adding something the question does not say, and the
 * passage's own rank. Its parameters come from bench/train-responder.ts.
 */
export function rankSentences(
  question: Question,
  passages: ContextPassage[],
  scorer: SentenceScorer = SENTENCE_WEIGHTS,
): Finding[] {
  return featureRows(question, passages)
    .map(({ candidate, features }) => ({
      candidate,
      score: sentenceScore(scorer, features),
      coverage: features[COVERAGE]! + features[PREVIOUS_COVERAGE]!,
    }))
    .sort((left, right) => right.score - left.score);
}
