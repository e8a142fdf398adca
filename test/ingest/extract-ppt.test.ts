import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPowerPoint } from '../../daemon/ingest/extract/ppt.ts';
import { requireCorpus } from '../support/corpus.ts';

const corpusPpt = (name: string): Uint8Array => readFileSync(join(requireCorpus(), 'files/ppt', name));

describe('readPowerPoint', () => {
  it('reads slides in presentation order with their titles as # lines', () => {
    const slides = readPowerPoint(corpusPpt('42486.ppt'));
    expect(slides).toHaveLength(33);
    expect(slides[0]?.text.split('\n')[0]).toBe('# Working to make online usage statistics more meaningful');
    expect(slides[1]?.text.split('\n')[0]).toBe('# Today’s agenda');
  });

  it('finds each slide’s speaker notes through the notes list', () => {
    const slides = readPowerPoint(corpusPpt('42486.ppt'));
    const withNotes = slides.flatMap((slide, index) => (slide.notes ? [[index + 1, slide.notes]] : []));
    expect(withNotes).toEqual([
      [19, 'No commas\nTotal row at top'],
      [27, 'Arbitrary but compatible e.g. 30/10\nCorrect NCSA return codes'],
    ]);
  });

  it('puts a title stored after the body text first', () => {
    const [first] = readPowerPoint(corpusPpt('bug58718_008524.ppt'));
    expect(first?.text.split('\n')[0]).toBe('# ROOT - Based Analysis at CDF');
  });

  it('rejects bytes that are not a presentation', () => {
    expect(() => readPowerPoint(new Uint8Array(512))).toThrow();
  });
});
