import { describe, expect, it } from 'vitest';
import { chunkDocument } from '../../daemon/ingest/chunk.ts';

// Paragraphs far longer than a chunk, of lines that are each a unit of their own and end in no full stop.
const jsonLeaves = Array.from(
  { length: 120 },
  (_, index) => `quotes[${index}].text: Quote ${index} says the piano does not murder the player`,
);
const slideBullets = Array.from(
  { length: 120 },
  (_, index) => `Report ${index} is provided at least monthly`,
);
const emailHeaders = Array.from(
  { length: 120 },
  (_, index) => `X-Header-${index}: relay ${index} received the message from the sender`,
);

describe('chunk bounds in line-by-line text', () => {
  it.each([
    ['JSON leaves', jsonLeaves],
    ['slide bullets', slideBullets],
    ['e-mail headers', emailHeaders],
  ])('never cut one of the %s', (_kind, lines) => {
    const chunks = chunkDocument(
      { pages: [{ page: 1, text: lines.join('\n') }] },
      { targetTokens: 96, overlapTokens: 16 },
    );
    expect(chunks.length).toBeGreaterThan(3);
    const whole = new Set(lines);
    for (const chunk of chunks) {
      // Pieces of one paragraph join with the line break that separated them, so each line is there whole.
      for (const line of chunk.text.split('\n')) expect(whole).toContain(line);
    }
  });
});
