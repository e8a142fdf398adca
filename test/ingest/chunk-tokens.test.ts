import fc from 'fast-check';
import { countTokens as libraryCount } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { countTokens } from '../../daemon/text/token-count.ts';

const plain = { disallowedSpecial: new Set<string>() };

/** Text rich in what pre-tokenisation turns on: case, digits, contractions, punctuation, runs of spaces. */
const trickyText = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        ' ',
        '  ',
        '\n',
        '\r\n',
        '\n\n',
        '\t',
        ' \n ',
        "'s",
        "'LL",
        '...',
        '/',
        '//',
        '1234567',
      ),
      fc.constantFrom(
        'Hello',
        'WORLD',
        'camelCase',
        'x',
        'éte',
        'Ünïcode',
        '東京',
        '😀',
        '<|endoftext|>',
        '—',
      ),
      fc.string({ maxLength: 6 }),
      fc.string({ unit: 'grapheme', maxLength: 4 }),
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''));

describe('countTokens', () => {
  it('equals the o200k tokenizer on any text, cached or not', () => {
    fc.assert(
      fc.property(trickyText, (text) => {
        expect(countTokens(text)).toBe(libraryCount(text, plain));
        expect(countTokens(text)).toBe(libraryCount(text, plain));
      }),
      { numRuns: 1500 },
    );
  });

  it('counts special-token text as plain text and empty text as nothing', () => {
    expect(countTokens('<|endoftext|>')).toBe(libraryCount('<|endoftext|>', plain));
    expect(countTokens('<|endoftext|>')).toBeGreaterThan(1);
    expect(countTokens('')).toBe(0);
  });
});
