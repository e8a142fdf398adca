import { describe, expect, it } from 'vitest';
import { containsAnswer } from '../../bench/squad.ts';

describe('containsAnswer', () => {
  it('finds a gold answer as whole words of the normalised reply', () => {
    expect(containsAnswer('The Denver Broncos won.', 'Denver Broncos')).toBe(true);
    expect(containsAnswer('It won in the 1990s.', '1990')).toBe(false);
  });

  it('parts words at punctuation outside ASCII, which the official normalisation keeps inside a word', () => {
    expect(containsAnswer('Zhu Shijie (1249–1314) solved equations.', '1249')).toBe(true);
    expect(containsAnswer('Dyrrachium—one of the naval bases—fell.', 'Dyrrachium')).toBe(true);
    expect(containsAnswer('a subscription was ‘often damaging’', 'often damaging')).toBe(true);
  });
});
