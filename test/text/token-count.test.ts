import fc from 'fast-check';
import { countTokens as libraryCount } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { CountedText, countTokens } from '../../daemon/text/token-count.ts';

const plain = { disallowedSpecial: new Set<string>() };

/** Every ASCII character, and the runs the hand-written scanner branches on. */
const asciiText = fc
  .array(
    fc.oneof(
      fc.integer({ min: 0, max: 127 }).map((code) => String.fromCharCode(code)),
      fc.constantFrom(' ', '  ', '   ', '\n', '\r\n', '\n\n  ', ' \n ', '\t', '\t ', '\x0b', '\x0c'),
      fc.constantFrom("'s", "'S", "'ll", "'LL", "'Ve", "'re", "'d", "'m", "'t", "'x", "'l"),
      fc.constantFrom(
        'word',
        'Word',
        'WORD',
        'camelCase',
        'HTTPServer',
        'x',
        '1234567',
        '.',
        '...',
        '/',
        '//',
      ),
      fc.constantFrom('(', ')', '"', '-', '_', '\x00', '\x7f', ' .', ' 9', ' (The'),
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''));

/** ASCII next to what the scanner hands to the regex: Unicode letters, marks, digits and spaces. */
const mixedText = fc
  .array(
    fc.oneof(
      asciiText,
      fc.constantFrom('é', 'Ünï', 'ß', 'Σ', 'ǅ', 'ʰ', '\u0301', '٣', '²', '東京', '😀', '\ud800'),
      fc.constantFrom('\u00a0', '\u3000', '\u2028', '\u00a0\n', ' \u00a0 ', '\n   \u00a0\n'),
    ),
    { maxLength: 8 },
  )
  .map((parts) => parts.join(''));

describe('countTokens', () => {
  it('equals the o200k tokenizer on ASCII, which it splits by hand', () => {
    fc.assert(
      fc.property(asciiText, (text) => {
        expect(countTokens(text)).toBe(libraryCount(text, plain));
      }),
      { numRuns: 3000 },
    );
  });

  it('equals the o200k tokenizer where ASCII meets other text', () => {
    fc.assert(
      fc.property(mixedText, (text) => {
        expect(countTokens(text)).toBe(libraryCount(text, plain));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('CountedText', () => {
  const textAndSpan = fc
    .oneof(asciiText, mixedText)
    .chain((text) =>
      fc
        .tuple(fc.nat({ max: text.length }), fc.nat({ max: text.length }))
        .map(([one, other]) => ({ text, start: Math.min(one, other), end: Math.max(one, other) })),
    );

  it('counts the whole text as countTokens does', () => {
    fc.assert(
      fc.property(mixedText, (text) => {
        expect(new CountedText(text).tokens).toBe(countTokens(text));
      }),
      { numRuns: 500 },
    );
  });

  it('counts any span as countTokens counts that span on its own', () => {
    fc.assert(
      fc.property(textAndSpan, ({ text, start, end }) => {
        expect(new CountedText(text).count(start, end)).toBe(countTokens(text.slice(start, end)));
      }),
      { numRuns: 3000 },
    );
  });

  it('counts sentences of a long paragraph whose edges differ from the whole', () => {
    const paragraph = "It's late.  (The end.)\n\nNext:  'quoted' words 123456 end. Don't STOP's now.\tTabs?";
    const counted = new CountedText(paragraph);
    for (let start = 0; start <= paragraph.length; start++) {
      for (let end = start; end <= paragraph.length; end++) {
        expect(counted.count(start, end)).toBe(libraryCount(paragraph.slice(start, end), plain));
      }
    }
  });
});
