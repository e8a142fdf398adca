/**
 * Fits the responder's answerability score (daemon/respond/answerability.ts): a logistic regression telling
 * questions the passages answer from off-topic ones, each class weighing half, by gradient descent on standardised
 * features (their spreads differ tenfold). Its bias then takes the floor at or below which the given share of
 * off-topic questions falls, so a reply says "could not find" to them and answers every question scoring above.
 */
import type { Answerability } from '../daemon/respond/answerability.ts';

const STEPS = 3000;
const LEARNING_RATE = 0.5;
const L2 = 1e-3;

export function fitAnswerability(
  answerable: number[][],
  offTopic: number[][],
  offTopicTurnedAway: number,
): Answerability {
  const rows = [...answerable, ...offTopic];
  const width = rows[0]?.length ?? 0;
  const mean = Array.from({ length: width }, (_, column) => average(rows.map((row) => row[column]!)));
  const spread = Array.from(
    { length: width },
    (_, column) => Math.sqrt(average(rows.map((row) => (row[column]! - mean[column]!) ** 2))) || 1,
  );
  const standard = (row: number[]) => row.map((value, column) => (value - mean[column]!) / spread[column]!);
  const examples = [
    ...answerable.map((row) => ({ row: standard(row), label: 1, weight: 0.5 / answerable.length })),
    ...offTopic.map((row) => ({ row: standard(row), label: 0, weight: 0.5 / offTopic.length })),
  ];
  const weights = new Array<number>(width).fill(0);
  let bias = 0;
  for (let step = 0; step < STEPS; step++) {
    const gradient = weights.map((weight) => L2 * weight);
    let biasGradient = 0;
    for (const { row, label, weight } of examples) {
      const error = (sigmoid(dot(weights, row) + bias) - label) * weight;
      row.forEach((value, column) => {
        gradient[column]! += error * value;
      });
      biasGradient += error;
    }
    gradient.forEach((value, column) => {
      weights[column]! -= LEARNING_RATE * value;
    });
    bias -= LEARNING_RATE * biasGradient;
  }
  // The same score on the raw features: w·(x − mean)/spread + b.
  const raw = weights.map((weight, column) => weight / spread[column]!);
  const rawBias = bias - raw.reduce((sum, weight, column) => sum + weight * mean[column]!, 0);
  const offTopicScores = offTopic.map((row) => dot(raw, row) + rawBias).sort((left, right) => left - right);
  const floor = offTopicScores[Math.ceil(offTopicTurnedAway * offTopicScores.length) - 1] ?? 0;
  return {
    weights: raw.map(rounded),
    // Just above the floor, rounded up, so the rounded weights still turn those questions away.
    bias: rounded(rawBias - floor - 0.01),
  };
}

function sigmoid(value: number): number {
  return 1 / (1 + Math.exp(-value));
}

function dot(left: readonly number[], right: readonly number[]): number {
  return left.reduce((sum, value, index) => sum + value * right[index]!, 0);
}

function average(values: number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
}

function rounded(value: number): number {
  return Math.round(value * 1000) / 1000;
}
