import { describe, expect, it } from 'vitest';
import { answerKind, readQuestion } from '../../daemon/respond/extract.ts';
import { sentenceScore } from '../../daemon/respond/sentence-model.ts';

describe('answer kind', () => {
  it('reads the kind the first wh-phrase asks for', () => {
    expect(answerKind('How many TV networks are partners, when it comes to the NFL?')).toBe('number');
    expect(answerKind('When did the NFL start their 16 game seasons?')).toBe('date');
    expect(answerKind('Which NFL team represented the AFC?')).toBe('person');
    expect(answerKind('What California city last hosted the Super Bowl?')).toBe('place');
    expect(answerKind('Why was the game moved?')).toBe('reason');
    expect(answerKind('What is the AFC short for?')).toBe('other');
  });

  it('takes the focus from the word a what-question names its answer by', () => {
    expect(readQuestion('What is the name of the stadium where it was played?').focus).toBe('stadium');
    expect(readQuestion('Which hotel did the Broncos use?').focus).toBe('hotel');
    expect(readQuestion('Who won?').focus).toBeUndefined();
  });
});

describe('sentence model', () => {
  it('adds the hidden units to the linear score', () => {
    const scorer = { linear: [1, 2], hidden: [[1, 0]], hiddenBias: [0.5], output: [2] };
    expect(sentenceScore(scorer, [0.5, 0.25])).toBeCloseTo(0.5 + 0.5 + 2 * Math.tanh(1));
  });
});
