import { describe, expect, it } from 'vitest';
import { sentenceScore } from '../../daemon/respond/sentence-model.ts';

describe('sentence model', () => {
  it('adds the hidden units to the linear score', () => {
    const scorer = { linear: [1, 2], hidden: [[1, 0]], hiddenBias: [0.5], output: [2] };
    expect(sentenceScore(scorer, [0.5, 0.25])).toBeCloseTo(0.5 + 0.5 + 2 * Math.tanh(1));
  });
});
