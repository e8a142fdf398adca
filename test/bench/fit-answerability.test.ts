import { describe, expect, it } from 'vitest';
import { fitAnswerability } from '../../bench/fit-answerability.ts';
import { answers } from '../../daemon/respond/answerability.ts';

/** A fixed pseudo-random draw in [0, 1), so the fit is the same every run. */
function draws(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** Rows of a best-sentence score and a share of the question held, spread around a centre; they overlap. */
function rows(count: number, score: number, held: number, next: () => number): number[][] {
  return Array.from({ length: count }, () => [score + 6 * (next() - 0.5), held + 0.6 * (next() - 0.5)]);
}

describe('fitting answerability', () => {
  it('turns away the share of off-topic questions asked for with the committed (rounded) weights', () => {
    const next = draws(7);
    const answerable = rows(600, 7, 0.75, next);
    const offTopic = rows(300, 2, 0.25, next);
    for (const share of [0.9, 0.97]) {
      const answerability = fitAnswerability(answerable, offTopic, share);
      for (const weight of [...answerability.weights, answerability.bias]) {
        expect(Math.round(weight * 1000) / 1000).toBe(weight);
      }
      const turnedAway = offTopic.filter((row) => !answers(answerability, row)).length / offTopic.length;
      expect(turnedAway).toBeGreaterThanOrEqual(share);
      expect(turnedAway).toBeLessThan(share + 0.01);
      const answered = answerable.filter((row) => answers(answerability, row)).length / answerable.length;
      expect(answered).toBeGreaterThan(0.8);
    }
  });
});
