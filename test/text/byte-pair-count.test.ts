import fc from 'fast-check';
import o200kRanks from 'gpt-tokenizer/bpeRanks/o200k_base';
import { countTokens as libraryCount } from 'gpt-tokenizer/encoding/o200k_base';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { describe, expect, it } from 'vitest';
import { countBytePairTokens } from '../../daemon/text/byte-pair-count.ts';

const plain = { disallowedSpecial: new Set<string>() };
/**
 * o200k has U+FEFF as one token (rank 5574, bytes EF BB BF), but the library decodes its vocabulary with a
 * TextDecoder that drops a leading byte order mark, so it never finds that token: there it is the library that errs.
 */
const BYTE_ORDER_MARK = '\uFEFF';
const preTokens = (text: string) => text.match(new RegExp(O200K_TOKEN_SPLIT_REGEX.source, 'gu')) ?? [];

describe('countBytePairTokens', () => {
  it('counts each pre-token as the o200k tokenizer does', () => {
    const text = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.string({ unit: 'grapheme', maxLength: 12 }),
      fc.string({ unit: 'binary', maxLength: 12 }),
      fc.array(
        fc.constantFrom('a', 'aa', 'ab', 'Z', ' ', 'é', 'ß', '東', '😀', '\u0301', '0', '.', '\ud800'),
        {
          maxLength: 20,
        },
      ),
    );
    fc.assert(
      fc.property(text, (value) => {
        const joined = Array.isArray(value) ? value.join('') : value;
        for (const preToken of preTokens(joined)) {
          if (preToken.includes(BYTE_ORDER_MARK)) continue;
          expect(countBytePairTokens(preToken)).toBe(libraryCount(preToken, plain));
        }
      }),
      { numRuns: 3000 },
    );
  });

  it("reads every token of the library's vocabulary from the tiktoken file", () => {
    let tokens = 0;
    for (const token of o200kRanks) {
      // Byte tokens that are not whole UTF-8 characters are spelled as numbers; no string holds them alone.
      if (typeof token !== 'string' || !token.isWellFormed()) continue;
      if (countBytePairTokens(token) !== 1) expect.fail(`${JSON.stringify(token)} is not one token`);
      tokens++;
    }
    expect(tokens).toBeGreaterThan(198_000);
  });

  it('counts the byte order mark as the one token the vocabulary holds, where the library cannot see it', () => {
    expect(countBytePairTokens(BYTE_ORDER_MARK)).toBe(1);
    expect(libraryCount(BYTE_ORDER_MARK, plain)).toBe(2);
  });

  it('counts whole-token words, long runs, lone surrogates and nothing', () => {
    for (const preToken of [
      ' the',
      ' antidisestablishmentarianism',
      'a'.repeat(300),
      ' '.repeat(200),
      '\ud800',
      '\udc00x',
      '😀😀',
      ' 東京都',
      '<|endoftext|>',
    ]) {
      expect(countBytePairTokens(preToken)).toBe(libraryCount(preToken, plain));
    }
    expect(countBytePairTokens('')).toBe(0);
  });
});
