/**
 * Whether the passages answer a question at all, or a reply should say it could not find this. The best sentence's
 * score alone tells an off-topic question apart poorly: a long claim scores low against passages that share one of
 * its words, and so does a short question whose answer the best sentence holds in other words. How much of the
 * question the passages hold tells them apart: an off-topic question's words are mostly missing even from the
 * closest passage.
 */
import { contentStems } from './content-words.ts';
import type { Finding } from './extract.ts';
import type { Question } from './question.ts';
import { dot } from './sentence-model.ts';
import type { ContextPassage } from './types.ts';

/** What the answerability score reads, in the order of `Answerability.weights`. */
export const ANSWERABILITY_FEATURES = [
  'bestScore',
  'bestCoverage',
  'termsInBestSentence',
  'termsInFirstPassage',
  'termsInPassages',
] as const;

/**
 * A logistic score over `ANSWERABILITY_FEATURES`; at or above 0 the passages answer. Fitted on SQuAD questions
 * against off-topic claims by bench/fit-answerability.ts, which bench/train-responder.ts runs.
 */
export interface Answerability {
  weights: readonly number[];
  /** Holds the floor that turns away off-topic questions, so the score's sign decides. */
  bias: number;
}

/**
 * The features of a question whose sentences are ranked, best first. Each term counts as the question weighs it:
 * a follow-up's words fully, the words of the turn it follows less.
 */
export function answerabilityFeatures(
  question: Question,
  passages: ContextPassage[],
  best: Finding,
): number[] {
  // The asker's words (askers-words.ts) count where they are held ("For the climb you need sturdy shoes" for "What
  // do I need?"), and are no words of the question where they are not.
  const held = (stems: Set<string>): number =>
    termsHeld(
      [...question.terms].filter(([term]) => stems.has(term) || !question.askers.has(term)),
      stems,
    );
  const passageStems = passages.map((passage) => new Set(contentStems(passage.text)));
  return [
    best.score,
    best.coverage,
    held(best.candidate.stems),
    held(passageStems[0] ?? new Set()),
    held(new Set(passageStems.flatMap((stems) => [...stems]))),
  ];
}

export function answers(answerability: Answerability, features: readonly number[]): boolean {
  return dot(answerability.weights, features) + answerability.bias >= 0;
}

/** The share of the terms' weight that `stems` hold; 0 when there are no terms. */
export function termsHeld(terms: Iterable<readonly [string, number]>, stems: Set<string>): number {
  let weight = 0;
  let total = 0;
  for (const [term, termWeight] of terms) {
    total += termWeight;
    if (stems.has(term)) weight += termWeight;
  }
  return total === 0 ? 0 : weight / total;
}
