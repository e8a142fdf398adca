/**
 * Fits the responder's answerability score (daemon/respond/answerability.ts): a logistic regression telling
 * questions the passages answer from off-topic ones, each class weighing half, by gradient descent on standardised
 * features. Its bias then takes the floor at or below which the given share of off-topic questions falls, so a
 * reply says "could not find" to them and answers every question scoring above.
 */
import type { Answerability } from '../daemon/respond/answerability.ts';
import { dot } from '../daemon/respond/sentence-model.ts';
import { round, shareFloor, standardisation } from './support.ts';

const STEPS = 3000;
const LEARNING_RATE = 0.5;
const L2 = 1e-3;
/** Decimals the committed weights keep. */
const DIGITS = 3;

export function fitAnswerability(
  answerable: number[][],
  offTopic: number[][],
  offTopicTurnedAway: number,
): Answerability {
  const { means, deviations } = standardisation([...answerable, ...offTopic]);
  const standard = (row: number[]) =>
    row.map((value, column) => (value - means[column]!) / deviations[column]!);
  const examples = [
    ...answerable.map((row) => ({ row: standard(row), label: 1, share: 0.5 / answerable.length })),
    ...offTopic.map((row) => ({ row: standard(row), label: 0, share: 0.5 / offTopic.length })),
  ];
  const weights = means.map(() => 0);
  let bias = 0;
  for (let step = 0; step < STEPS; step++) {
    const gradient = weights.map((weight) => L2 * weight);
    let biasGradient = 0;
    for (const { row, label, share } of examples) {
      const error = (sigmoid(dot(weights, row) + bias) - label) * share;
      row.forEach((value, column) => {
        gradient[column]! += error * value;
      });
      biasGradient += error;
    }
    gradient.forEach((slope, column) => {
      weights[column]! -= LEARNING_RATE * slope;
    });
    bias -= LEARNING_RATE * biasGradient;
  }
  // The same ranking of questions on the raw features, w·x / deviation: the constant the means add drops out, as
  // the floor below is taken on these scores. Weights are rounded first, so the floor holds for the committed ones.
  const raw = weights.map((weight, column) => round(weight / deviations[column]!, DIGITS));
  const floor = shareFloor(
    offTopic.map((row) => dot(raw, row)),
    offTopicTurnedAway,
  );
  // Rounded down, so a question scoring just at the floor stays below 0.
  return { weights: raw, bias: Math.floor(-floor * 10 ** DIGITS - 1) / 10 ** DIGITS };
}

function sigmoid(value: number): number {
  return 1 / (1 + Math.exp(-value));
}
