/**
 * The sentence model: a linear score over `SENTENCE_FEATURES` plus a small hidden layer, which reads what a sum
 * cannot, such as the kind asked for found only in a sentence that also holds the question's words. Its
 * parameters are fitted by bench/train-responder.ts; here it is only evaluated, a pure function of the features.
 */
export interface SentenceScorer {
  linear: readonly number[];
  /** One row of feature weights per hidden unit. */
  hidden: readonly (readonly number[])[];
  hiddenBias: readonly number[];
  /** How much each hidden unit's activation adds to the score. */
  output: readonly number[];
}

/** A sentence's logit: its share of a softmax over the question's candidate sentences. */
export function sentenceScore(scorer: SentenceScorer, features: readonly number[]): number {
  let score = dot(scorer.linear, features);
  scorer.hidden.forEach((row, unit) => {
    score += (scorer.output[unit] ?? 0) * Math.tanh(dot(row, features) + (scorer.hiddenBias[unit] ?? 0));
  });
  return score;
}

/** Each logit's share of one softmax over them all: how likely the model finds each candidate the answer. */
export function softmaxShares(scores: readonly number[]): number[] {
  const best = Math.max(...scores);
  const weights = scores.map((score) => Math.exp(score - best));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  return weights.map((weight) => weight / total);
}

export function dot(weights: readonly number[], features: readonly number[]): number {
  let sum = 0;
  for (let index = 0; index < features.length; index++) sum += (weights[index] ?? 0) * features[index]!;
  return sum;
}
