import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkContextText, chunkDocument } from '../../daemon/ingest/chunk.ts';
import type { ExtractedDocument } from '../../daemon/ingest/types.ts';
import { countTokens } from '../../daemon/text/token-count.ts';

const nonWhitespace = (text: string) => text.replace(/\s+/g, '');

function isSubsequence(needle: string, haystack: string): boolean {
  let position = 0;
  for (const character of haystack) {
    if (character === needle[position]) position++;
    if (position === needle.length) return true;
  }
  return position === needle.length;
}

describe('chunkDocument', () => {
  it('follows headings and carries the heading path', () => {
    const document: ExtractedDocument = {
      pages: [
        {
          page: 1,
          text: '# Guide\n\nIntro paragraph.\n\n## Install\n\nRun the installer.\n\n## Use\n\nAsk a question.',
        },
      ],
    };
    const chunks = chunkDocument(document, { targetTokens: 200 });
    expect(chunks.map((chunk) => chunk.headings)).toEqual([
      ['Guide'],
      ['Guide', 'Install'],
      ['Guide', 'Use'],
    ]);
    expect(chunks[1]!.text).toBe('## Install\n\nRun the installer.');
    expect(chunkContextText(chunks[1]!)).toBe('Guide\n## Install\n\nRun the installer.');
    expect(chunks.map((chunk) => chunk.index)).toEqual([0, 1, 2]);
  });

  it('reads a comment in a fenced code block as code, not as a heading', () => {
    const document: ExtractedDocument = {
      pages: [
        {
          page: 1,
          text: '# Tool\n\nA tool.\n\n## Quick Start\n\nInstall:\n\n```bash\n# install it first\nnpm install tool\n```\n\n## Issue Tracker\n\nReport bugs on the tracker.',
        },
      ],
    };
    const chunks = chunkDocument(document, { targetTokens: 200 });
    expect(chunks.map((chunk) => chunk.headings)).toEqual([
      ['Tool'],
      ['Tool', 'Quick Start'],
      ['Tool', 'Issue Tracker'],
    ]);
    expect(chunks[1]!.text).toBe(
      '## Quick Start\n\nInstall:\n\n```bash\n# install it first\nnpm install tool\n```',
    );
  });

  it('reads a fence opening a list item, and takes code inline between backticks for no fence', () => {
    for (const text of [
      '# Tool\n\n- ```bash\n  # fetch first\n  npm i tool\n  ```\n\n## Usage\n\nRun it.\n\n```bash\ntool run\n```\n\n## License\n\nMIT.',
      '# Tool\n\n```npm i tool``` installs it.\n\n## Usage\n\nRun it.\n\n```bash\ntool run\n```\n\n## License\n\nMIT.',
    ]) {
      const chunks = chunkDocument({ pages: [{ page: 1, text }] }, { targetTokens: 30 });
      expect(chunks.map((chunk) => chunk.headings)).toEqual([
        ['Tool'],
        ['Tool', 'Usage'],
        ['Tool', 'License'],
      ]);
    }
  });

  it('still reads headings after a fence that is never closed', () => {
    const document: ExtractedDocument = {
      pages: [{ page: 1, text: '# Notes\n\nA stray fence:\n\n```\n\n## Later\n\nMore text.' }],
    };
    const chunks = chunkDocument(document, { targetTokens: 200 });
    expect(chunks.map((chunk) => chunk.headings)).toEqual([['Notes'], ['Notes', 'Later']]);
  });

  it('never spans two pages and keeps each page number and url', () => {
    const document: ExtractedDocument = {
      pages: [
        { page: 1, text: 'First page text.', url: 'https://example.com/a' },
        { page: 2, text: 'Second page text.', url: 'https://example.com/b' },
      ],
    };
    const chunks = chunkDocument(document);
    expect(chunks).toEqual([
      { index: 0, page: 1, text: 'First page text.', headings: [], url: 'https://example.com/a' },
      { index: 1, page: 2, text: 'Second page text.', headings: [], url: 'https://example.com/b' },
    ]);
  });

  it('keeps chunks within the token target, splitting long paragraphs at sentences', () => {
    const sentence = 'The quick brown fox jumps over the lazy dog near the river bank today. ';
    const document: ExtractedDocument = { pages: [{ page: 1, text: sentence.repeat(200) }] };
    const chunks = chunkDocument(document, { targetTokens: 120, overlapTokens: 20 });
    expect(chunks.length).toBeGreaterThan(10);
    for (const chunk of chunks) {
      expect(countTokens(chunk.text)).toBeLessThanOrEqual(126);
      expect(chunk.text.endsWith('today.')).toBe(true);
    }
  });

  it('overlaps consecutive chunks of one section by whole sentences', () => {
    const text = Array.from({ length: 40 }, (_, index) => `Sentence number ${index} says something.`).join(
      ' ',
    );
    const chunks = chunkDocument({ pages: [{ page: 1, text }] }, { targetTokens: 64, overlapTokens: 16 });
    expect(chunks.length).toBeGreaterThan(3);
    for (let position = 1; position < chunks.length; position++) {
      const firstSentence = chunks[position]!.text.split('. ')[0]!;
      expect(chunks[position - 1]!.text).toContain(firstSentence);
      expect(chunks[position]!.text).not.toContain('\n');
    }
  });

  it('splits text without spaces or sentences', () => {
    const document: ExtractedDocument = { pages: [{ page: 1, text: 'x9Q'.repeat(3000) }] };
    const chunks = chunkDocument(document, { targetTokens: 100, overlapTokens: 0 });
    expect(chunks.map((chunk) => chunk.text).join('')).toBe('x9Q'.repeat(3000));
  });

  it('treats special-token spellings as text', () => {
    const chunks = chunkDocument({ pages: [{ page: 1, text: 'before <|endoftext|> after' }] });
    expect(chunks[0]!.text).toBe('before <|endoftext|> after');
  });

  it('loses no text: the non-whitespace characters of every page appear in order', () => {
    const line = fc.oneof(
      fc.string({ maxLength: 80 }),
      fc.constantFrom('# Title', '## Part', '', '   ', 'A sentence. Another one! A third?'),
      fc.lorem({ maxCount: 60, mode: 'sentences' }),
    );
    const page = fc.array(line, { maxLength: 30 }).map((lines) => lines.join('\n'));
    fc.assert(
      fc.property(
        fc.array(page, { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 16, max: 300 }),
        fc.integer({ min: 0, max: 40 }),
        (pages, targetTokens, overlapTokens) => {
          const document = { pages: pages.map((text, index) => ({ page: index + 1, text })) };
          const chunks = chunkDocument(document, { targetTokens, overlapTokens });
          for (const { page, text } of document.pages) {
            const pageText = chunks
              .filter((chunk) => chunk.page === page)
              .map((chunk) => chunk.text)
              .join('');
            expect(isSubsequence(nonWhitespace(text), nonWhitespace(pageText))).toBe(true);
            if (overlapTokens === 0) expect(nonWhitespace(pageText)).toBe(nonWhitespace(text));
          }
          expect(chunks.every((chunk) => chunk.text.trim() !== '')).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });
});
