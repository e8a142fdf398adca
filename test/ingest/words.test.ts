import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { forEachWord, words } from '../../daemon/ingest/embed/words.ts';

function spannedWords(text: string): string[] {
  const found: string[] = [];
  forEachWord(text, (source, start, end) => {
    found.push(source.slice(start, end).replace(/[A-Z]+/g, (letters) => letters.toLowerCase()));
  });
  return found;
}

describe('forEachWord', () => {
  it('gives the words `words` gives, across ASCII and Unicode runs', () => {
    const text = fc
      .array(
        fc.oneof(
          fc.string({ maxLength: 8 }),
          fc.constantFrom(' ', '  ', '\n', '\t', '-', '.', "'", ':', ',', '\u00a0', '\u3000'),
          fc.constantFrom('Word', 'CAFÉ', 'café', 'cafe\u0301', 'Straße', 'ﬁne', '½', 'x²', 'İstanbul'),
          fc.constantFrom('ΟΔΟΣ', 'ΟΔΟΣ.Β', 'ΑΣ', 'Σ', 'ΣΑ', 'ὀδυσσεύς', '東京', '😀', 'a1b2', 'ǅ'),
        ),
        { maxLength: 30 },
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (value) => {
        expect(spannedWords(value)).toEqual(words(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('reads ASCII in place and hands other runs over as words', () => {
    const seen: [string, number, number][] = [];
    const text = 'Hello, café world';
    forEachWord(text, (source, start, end) => {
      seen.push([source, start, end]);
    });
    expect(seen).toEqual([
      [text, 0, 5],
      ['cafe', 0, 4],
      [text, 12, 17],
    ]);
  });
});
