import { describe, expect, it } from 'vitest';
import { answerKind, holdsAnswerKind, isQuestion } from '../../daemon/retrieve/query-form.ts';

describe('query form', () => {
  it('tells questions, with or without a question mark or a leading wh-word, from statements', () => {
    expect(isQuestion('When was the Duchy of Normandy founded?')).toBe(true);
    expect(isQuestion('Who ruled the duchy of Normandy')).toBe(true);
    expect(isQuestion('Trotsky thought what was needed for a true Russian revolution.')).toBe(true);
    expect(isQuestion('______ helps the biosphere from UV.')).toBe(true);
    expect(isQuestion('1 in 5 million in UK have abnormal PrP positivity.')).toBe(false);
    expect(isQuestion('installation steps')).toBe(false);
  });

  it('reads the kind of answer a question asks for', () => {
    expect(answerKind('In what year did the war end?')).toBe('time');
    expect(answerKind('How many people live in Fresno?')).toBe('number');
    expect(answerKind('Who was the duke in the battle of Hastings?')).toBe('name');
    expect(answerKind('What religion were the Normans?')).toBeUndefined();
  });

  it('finds a name only where the question does not already hold it', () => {
    const asked = new Set(['who', 'led', 'the', 'normans']);
    expect(holdsAnswerKind('name', 'The Normans were led by Rollo.', asked)).toBe(true);
    expect(holdsAnswerKind('name', 'They were led by the Normans.', asked)).toBe(false);
    expect(holdsAnswerKind('time', 'It began in 1066.', asked)).toBe(true);
  });
});
