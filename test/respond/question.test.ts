import { describe, expect, it } from 'vitest';
import { readQuestion } from '../../daemon/respond/question.ts';

describe('question', () => {
  it('takes the focus from the word a what-question names its answer by', () => {
    expect(readQuestion('What is the name of the stadium where it was played?').focus).toBe('stadium');
    expect(readQuestion('Which hotel did the Broncos use?').focus).toBe('hotel');
    expect(readQuestion('Who won?').focus).toBeUndefined();
  });
});
