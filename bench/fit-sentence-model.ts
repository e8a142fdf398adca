/**
 * Fits the sentence model (daemon/respond/sentence-model.ts): the probability a softmax over each question's
 * candidate sentences puts on the sentences holding a gold answer is maximised, with L2 regularisation, by Adam
 * on full batches. Hidden units start from a fixed pseudo-random draw, so a fit is reproducible.
 */
import type { SentenceScorer } from '../daemon/respond/sentence-model.ts';
import { softmax, softmaxAmong } from './support.ts';

export interface LabelledQuestion {
  /** One feature row per candidate sentence. */
  features: number[][];
  /** Whether each candidate holds a gold answer. */
  labels: boolean[];
}

const HIDDEN_UNITS = 12;
const EPOCHS = 300;
const LEARNING_RATE = 0.02;
const L2 = 1e-3;
const INITIAL_SCALE = 0.5;

/** Where each part of the scorer sits in one flat parameter vector, which the optimiser updates as a whole. */
interface Layout {
  inputs: number;
  linear: number;
  hidden: number;
  hiddenBias: number;
  output: number;
  size: number;
}

function layout(inputs: number): Layout {
  const hidden = inputs;
  const hiddenBias = hidden + HIDDEN_UNITS * inputs;
  const output = hiddenBias + HIDDEN_UNITS;
  return { inputs, linear: 0, hidden, hiddenBias, output, size: output + HIDDEN_UNITS };
}

export function fitSentenceScorer(questions: LabelledQuestion[], inputs: number): SentenceScorer {
  // A question whose candidates are all right or all wrong teaches nothing about ranking them.
  const usable = questions.filter(
    (question) => question.labels.some(Boolean) && question.labels.some((label) => !label),
  );
  const parts = layout(inputs);
  const parameters = initialParameters(parts);
  const first = new Float64Array(parts.size);
  const second = new Float64Array(parts.size);
  for (let epoch = 1; epoch <= EPOCHS; epoch++) {
    const gradient = parameters.map((parameter) => L2 * parameter);
    for (const question of usable) addGradient(parts, parameters, question, gradient, 1 / usable.length);
    for (let index = 0; index < parts.size; index++) {
      first[index] = 0.9 * first[index]! + 0.1 * gradient[index]!;
      second[index] = 0.999 * second[index]! + 0.001 * gradient[index]! ** 2;
      const corrected = first[index]! / (1 - 0.9 ** epoch);
      const scale = Math.sqrt(second[index]! / (1 - 0.999 ** epoch)) + 1e-8;
      parameters[index]! -= (LEARNING_RATE * corrected) / scale;
    }
  }
  return scorerOf(parts, parameters);
}

/** The linear part starts at zero; hidden units need distinct starts to learn distinct crosses. */
function initialParameters(parts: Layout): Float64Array {
  const parameters = new Float64Array(parts.size);
  let seed = 7;
  const draw = (): number => {
    seed = (seed * 16807) % 2147483647;
    return (seed / 2147483647 - 0.5) * INITIAL_SCALE;
  };
  for (let index = parts.hidden; index < parts.hiddenBias; index++) parameters[index] = draw();
  for (let index = parts.output; index < parts.size; index++) parameters[index] = draw();
  return parameters;
}

/** Adds one question's share of the gradient of the negative log probability on its gold sentences. */
function addGradient(
  parts: Layout,
  parameters: Float64Array,
  question: LabelledQuestion,
  gradient: Float64Array,
  share: number,
): void {
  const passes = question.features.map((row) => forward(parts, parameters, row));
  const scores = passes.map((pass) => pass.score);
  const all = softmax(scores);
  const gold = softmaxAmong(scores, question.labels);
  question.features.forEach((row, candidate) => {
    const delta = share * (all[candidate]! - gold[candidate]!);
    const activations = passes[candidate]!.activations;
    for (let input = 0; input < parts.inputs; input++) gradient[parts.linear + input]! += delta * row[input]!;
    for (let unit = 0; unit < HIDDEN_UNITS; unit++) {
      const activation = activations[unit]!;
      gradient[parts.output + unit]! += delta * activation;
      const unitDelta = delta * parameters[parts.output + unit]! * (1 - activation * activation);
      gradient[parts.hiddenBias + unit]! += unitDelta;
      const rowStart = parts.hidden + unit * parts.inputs;
      for (let input = 0; input < parts.inputs; input++)
        gradient[rowStart + input]! += unitDelta * row[input]!;
    }
  });
}

function forward(
  parts: Layout,
  parameters: Float64Array,
  row: number[],
): { score: number; activations: Float64Array } {
  const activations = new Float64Array(HIDDEN_UNITS);
  let score = 0;
  for (let input = 0; input < parts.inputs; input++) score += parameters[parts.linear + input]! * row[input]!;
  for (let unit = 0; unit < HIDDEN_UNITS; unit++) {
    const rowStart = parts.hidden + unit * parts.inputs;
    let sum = parameters[parts.hiddenBias + unit]!;
    for (let input = 0; input < parts.inputs; input++) sum += parameters[rowStart + input]! * row[input]!;
    activations[unit] = Math.tanh(sum);
    score += parameters[parts.output + unit]! * activations[unit]!;
  }
  return { score, activations };
}

function scorerOf(parts: Layout, parameters: Float64Array): SentenceScorer {
  const rounded = (start: number, end: number): number[] =>
    [...parameters.subarray(start, end)].map((value) => Math.round(value * 1000) / 1000);
  return {
    linear: rounded(parts.linear, parts.linear + parts.inputs),
    hidden: Array.from({ length: HIDDEN_UNITS }, (_, unit) =>
      rounded(parts.hidden + unit * parts.inputs, parts.hidden + (unit + 1) * parts.inputs),
    ),
    hiddenBias: rounded(parts.hiddenBias, parts.output),
    output: rounded(parts.output, parts.size),
  };
}
