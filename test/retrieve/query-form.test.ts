import { describe, expect, it } from 'vitest';
import { isQuestion } from '../../daemon/retrieve/query-form.ts';

describe('query form', () => {
  it('tells questions, with or without a question mark or a leading wh-word, from statements', () => {
    expect(isQuestion('When was the Duchy of Normandy founded?')).toBe(true);
    expect(isQuestion('Who ruled the duchy of Normandy')).toBe(true);
    expect(isQuestion('Trotsky thought what was needed for a true Russian revolution.')).toBe(true);
    expect(isQuestion('______ helps the biosphere from UV.')).toBe(true);
    expect(isQuestion('1 in 5 million in UK have abnormal PrP positivity.')).toBe(false);
    expect(isQuestion('installation steps')).toBe(false);
  });
});
