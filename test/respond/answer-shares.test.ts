import { describe, expect, it } from 'vitest';
import { answerShares } from '../../daemon/respond/answer-shares.ts';

describe('answerShares', () => {
  const texts = [
    'The tower was finished for the fair. Visitors climbed the tower in great numbers.',
    'The tower was designed by Gustave Eiffel, whose company built it.',
    'Paris held a world fair in 1889.',
  ];

  it("puts most of the sentence model's answer on the passage whose sentence says what is asked", () => {
    const shares = answerShares('Who designed the tower?', undefined, texts);
    expect(shares).toHaveLength(3);
    expect(shares.reduce((sum, share) => sum + share, 0)).toBeCloseTo(1);
    expect(shares[1]).toBeGreaterThan(shares[0]! + shares[2]!);
  });

  it('reads a follow-up with the question it follows', () => {
    const alone = answerShares('And who designed it?', undefined, texts);
    const followed = answerShares('And who designed it?', 'When was the tower finished?', texts);
    expect(followed[1]).toBeGreaterThan(followed[2]!);
    expect(followed).not.toEqual(alone);
  });

  it('gives nothing when the question has no words to match', () => {
    expect(answerShares('What is it?', undefined, texts)).toEqual([0, 0, 0]);
  });
});
