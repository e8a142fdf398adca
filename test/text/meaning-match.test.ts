import { describe, expect, it } from 'vitest';
import { askedWords, nearness, saidOtherwise, vectorRows } from '../../daemon/text/meaning-match.ts';
import { term, words } from '../../daemon/text/words.ts';

const question = 'What problem did the inspectors find at the dam?';

describe('meaning match', () => {
  it('reads the content words of a question that have vectors, one per term, with their weights', () => {
    const asked = askedWords(`${question} Problems, zzzqqq!`, (stem) => (stem === term('dam') ? 2 : 1));
    expect(asked.map((word) => [word.term, word.weight])).toEqual([
      [term('problem'), 1],
      [term('inspectors'), 1],
      [term('find'), 1],
      [term('dam'), 2],
    ]);
  });

  it('counts an asked word a text says in other words by how nearly, and one it holds not at all', () => {
    const asked = askedWords(question, () => 1);
    const withConcern = 'at the dam the inspectors found a serious concern';
    const withPaint = 'at the dam the inspectors found new paint';
    const holds = (text: string) => (stem: string) => words(text).map(term).includes(stem);
    const concern = saidOtherwise(asked, nearness(asked, vectorRows(words(withConcern))), holds(withConcern));
    const paint = saidOtherwise(asked, nearness(asked, vectorRows(words(withPaint))), holds(withPaint));
    // Both hold "inspectors" and "dam", and say "find" as "found"; "concern" says "problem", "paint" does not.
    expect(concern - paint).toBeGreaterThan(0.2);
    const everything = `${question} ${withConcern}`;
    expect(saidOtherwise(asked, nearness(asked, vectorRows(words(everything))), holds(everything))).toBe(0);
  });

  it('finds the asked word itself nearest of all, and nothing in a text without vectors', () => {
    const asked = askedWords('problem', () => 1);
    expect(nearness(asked, vectorRows(['problem']))[0]).toBeCloseTo(1, 2);
    expect(nearness(asked, vectorRows(['concern']))[0]).toBeGreaterThan(0.3);
    expect(nearness(asked, vectorRows(['zzzqqq', 'the']))).toEqual([0]);
  });
});
