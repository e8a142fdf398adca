import { describe, expect, it } from 'vitest';
import { readQuestion } from '../../daemon/respond/question.ts';

describe('question', () => {
  it('takes the focus from the word a what-question names its answer by', () => {
    expect(readQuestion('What is the name of the stadium where it was played?').focus).toBe('stadium');
    expect(readQuestion('Which hotel did the Broncos use?').focus).toBe('hotel');
    expect(readQuestion('Who won?').focus).toBeUndefined();
  });

  it('tells a yes/no question, which asks to confirm what it says, from one asking for a thing', () => {
    for (const message of [
      'Is there a hot tub at Breezy Cove?',
      'and does it have a dock?',
      'Can Mammoth read .doc files?',
    ])
      expect(readQuestion(message).confirms).toBe(true);
    for (const message of [
      'The Bank of America Tower was previously known as what?',
      'Is it known which team won?',
      'Tell me about the Music Sound Interpreter presentation',
      'Islands of the Pacific',
    ])
      expect(readQuestion(message).confirms).toBe(false);
  });
});
