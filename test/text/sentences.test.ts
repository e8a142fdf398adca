import { describe, expect, it } from 'vitest';
import { sentences } from '../../daemon/text/sentences.ts';

describe('sentences', () => {
  it('splits prose at sentence ends, not after abbreviations or initials', () => {
    expect(
      sentences('Dr. Smith met J. R. Tolkien in the U.S. in 1950. They spoke for hours! Did it matter? Yes.'),
    ).toEqual([
      'Dr. Smith met J. R. Tolkien in the U.S. in 1950.',
      'They spoke for hours!',
      'Did it matter?',
      'Yes.',
    ]);
  });

  it('keeps a sentence whole across line breaks and ends one at a blank line', () => {
    expect(sentences('The game was played\non February 7, 2016\n\nA new paragraph')).toEqual([
      'The game was played on February 7, 2016',
      'A new paragraph',
    ]);
  });

  it('reads table rows, list items and headings as sentences of their own', () => {
    expect(
      sentences('# Prices\n| item | cost |\n|---|---|\n| tea | 2 |\n- one thing\n- another thing'),
    ).toEqual(['# Prices', 'item; cost', 'tea; 2', '- one thing', '- another thing']);
  });
});
