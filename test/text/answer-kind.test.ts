import { describe, expect, it } from 'vitest';
import { answerKind, answerOfKind } from '../../daemon/text/answer-kind.ts';
import { term, words } from '../../daemon/text/words.ts';

const known = (question: string) => new Set(words(question).map(term));

describe('answer kind', () => {
  it('reads the kind the first wh-phrase asks for', () => {
    expect(answerKind('How many TV networks are partners, when it comes to the NFL?')).toBe('number');
    expect(answerKind('When did the NFL start their 16 game seasons?')).toBe('date');
    expect(answerKind('In what year did the war end?')).toBe('date');
    expect(answerKind('Which NFL team represented the AFC?')).toBe('person');
    expect(answerKind('What California city last hosted the Super Bowl?')).toBe('place');
    expect(answerKind('Why was the game moved?')).toBe('reason');
    expect(answerKind('What is the AFC short for?')).toBe('other');
  });

  it('finds a name only where the question does not already hold it', () => {
    const asked = known('Who led the Normans?');
    expect(answerOfKind('The Normans were led by Rollo.', 'person', asked)).toBe('Rollo');
    expect(answerOfKind('They were led by the Normans.', 'person', asked)).toBeUndefined();
  });

  it('finds dates and numbers, and nothing for a question of no kind', () => {
    expect(answerOfKind('It began in 1066.', 'date', known('When did it begin?'))).toBe('1066');
    expect(answerOfKind('About 500,000 people live there.', 'number', known('How many live there?'))).toBe(
      '500,000',
    );
    expect(answerOfKind('It began in 1066.', 'other', new Set())).toBeUndefined();
  });
});
