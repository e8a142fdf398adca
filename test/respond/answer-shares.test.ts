import { describe, expect, it } from 'vitest';
import { answerShares } from '../../daemon/respond/answer-shares.ts';

/** Hits of one source each, as the reranker passes them. */
const hits = (texts: string[]) => texts.map((text, index) => ({ text, sourceId: `src_${index}` }));

describe('answerShares', () => {
  const texts = hits([
    'The tower was finished for the fair. Visitors climbed the tower in great numbers.',
    'The tower was designed by Gustave Eiffel, whose company built it.',
    'Paris held a world fair in 1889.',
  ]);

  it("puts most of the sentence model's answer on the passage whose sentence says what is asked", () => {
    const shares = answerShares('Who designed the tower?', undefined, texts);
    expect(shares).toHaveLength(3);
    expect(shares.reduce((sum, share) => sum + share, 0)).toBeCloseTo(1);
    expect(shares[1]).toBeGreaterThan(shares[0]! + shares[2]!);
  });

  it('reads a follow-up with the question it follows', () => {
    const finished = hits(['The bridge was finished in 1820.', 'The tower was finished in 1889.']);
    const alone = answerShares('And when was it finished?', undefined, finished);
    expect(alone[0]).toBeCloseTo(alone[1]!);
    const followed = answerShares('And when was it finished?', 'Who designed the tower?', finished);
    expect(followed[1]).toBeGreaterThan(0.9);
  });

  it('gives nothing to a source holding none of the names the question uses, when another holds one', () => {
    const talks = hits([
      'COUNTER sets a standard for online usage statistics. Vendors report them monthly.',
      'Neural nets are used for measuring the top quark mass.',
    ]);
    const [counter, physics] = answerShares('What does COUNTER measure?', undefined, talks);
    expect(counter).toBeCloseTo(1);
    expect(physics).toBe(0);
  });

  it('gives nothing when the question has no words to match', () => {
    expect(answerShares('What is it?', undefined, texts)).toEqual([0, 0, 0]);
  });
});
