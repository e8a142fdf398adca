import { describe, expect, it } from 'vitest';
import { passageTerms } from '../../daemon/retrieve/passage-terms.ts';
import { term } from '../../daemon/text/words.ts';

describe('passageTerms', () => {
  const text = 'The dam was finished in 1936.\n\nIt holds back the Colorado River.';

  it('reads sentences, paragraphs, terms and counts, function words kept apart', () => {
    const reading = passageTerms({ text, headings: ['Hoover Dam'] });
    expect(reading.sentences.map((sentence) => sentence.text)).toEqual([
      'The dam was finished in 1936.',
      'It holds back the Colorado River.',
    ]);
    expect(reading.paragraphs).toHaveLength(2);
    expect(reading.headings.has(term('hoover'))).toBe(true);
    expect(reading.all.has(term('colorado'))).toBe(true);
    expect(reading.counts.get(term('dam'))).toBe(1);
    expect(reading.sentences[0]!.spacedWords).toContain(' was ');
    expect(reading.sentences[0]!.terms).not.toContain('was');
    expect(reading.sentences[1]!.rows.length).toBeGreaterThan(0);
  });

  it('reads a passage once, and the same text under other headings afresh', () => {
    const first = passageTerms({ text, headings: ['Hoover Dam'] });
    expect(passageTerms({ text: `${text}`, headings: ['Hoover Dam'] })).toBe(first);
    const elsewhere = passageTerms({ text, headings: ['Glen Canyon Dam'] });
    expect(elsewhere).not.toBe(first);
    expect(elsewhere.headings.has(term('glen'))).toBe(true);
  });
});
