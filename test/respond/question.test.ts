import { describe, expect, it } from 'vitest';
import { answerKind, readQuestion } from '../../daemon/respond/question.ts';

describe('question', () => {
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
