import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { citationNumbers, citedSources, replySources } from '../../daemon/respond/citations.ts';
import type { ContextPassage } from '../../daemon/respond/types.ts';

function passage(
  number: number,
  sourceId: string,
  page: number,
  score: number,
  url?: string,
): ContextPassage {
  return {
    number,
    sourceName: `${sourceId}.pdf`,
    sourceId,
    page,
    text: `passage ${number}`,
    score,
    ...(url ? { url } : {}),
  };
}

const passages = [
  passage(1, 'a', 1, 0.9),
  passage(2, 'b', 4, 0.7),
  passage(3, 'a', 1, 0.6),
  passage(4, 'a', 2, 0.8),
  passage(5, 'c', 1, 0.8, 'https://example.com/c'),
];

describe('citations', () => {
  it('lists each cited source page once, best score first', () => {
    expect(citedSources(passages, [2, 3, 1]).map((cited) => cited.number)).toEqual([1, 2]);
    expect(replySources(passages, [4, 2, 5])).toEqual([
      { source: 'a.pdf', page: 2, score: 0.8, source_id: 'a' },
      { source: 'c.pdf', page: 1, score: 0.8, source_id: 'c', url: 'https://example.com/c' },
      { source: 'b.pdf', page: 4, score: 0.7, source_id: 'b' },
    ]);
  });

  it('numbers every used passage by its source position, passages of one page sharing a number', () => {
    expect([...citationNumbers(passages, [3, 2, 1]).entries()]).toEqual([
      [1, 1],
      [2, 2],
      [3, 1],
    ]);
  });

  it('gives numbers that always index the listed sources', () => {
    const arbitraryPassages = fc
      .array(
        fc.record({
          sourceId: fc.constantFrom('a', 'b', 'c'),
          page: fc.integer({ min: 1, max: 3 }),
          score: fc.double({ min: 0, max: 1, noNaN: true }),
        }),
        { minLength: 1, maxLength: 8 },
      )
      .map((items) => items.map((item, index) => passage(index + 1, item.sourceId, item.page, item.score)));
    fc.assert(
      fc.property(arbitraryPassages, fc.array(fc.nat(9)), (given, picks) => {
        const used = picks.map((pick) => (pick % given.length) + 1);
        const sources = replySources(given, used);
        for (const [number, position] of citationNumbers(given, used)) {
          const cited = given.find((item) => item.number === number)!;
          expect(position).toBeGreaterThanOrEqual(1);
          expect(sources[position - 1]).toMatchObject({ source_id: cited.sourceId, page: cited.page });
        }
        expect(new Set(citationNumbers(given, used).values()).size).toBe(sources.length);
      }),
    );
  });
});
