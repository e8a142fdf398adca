import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chunkDocument } from '../../daemon/ingest/chunk.ts';
import { createExtractor } from '../../daemon/ingest/extract/index.ts';
import { readPowerPoint } from '../../daemon/ingest/extract/ppt.ts';
import { corpusOrSkip } from '../support/corpus.ts';
import { buildPpt } from '../support/ppt-fixture.ts';

describe('readPowerPoint on presentations built record by record', () => {
  const presentation = buildPpt([
    {
      listText: [{ kind: 'title', text: 'Quarterly review' }],
      drawn: [
        { kind: 'body', text: 'Revenue grew\nCosts fell' },
        { kind: 'title', text: 'Quarterly review' },
      ],
      notes: 'Mention the new office',
    },
    {
      drawn: [
        { kind: 'title', text: 'Next steps' },
        { kind: 'body', text: 'Hire two engineers' },
      ],
    },
    { drawn: [{ kind: 'body', text: 'Café menu, 8-bit text', bytes: true }] },
  ]);

  it('reads slides in the order of the slide list, not of the stream', () => {
    const slides = readPowerPoint(presentation);
    expect(slides.map((slide) => slide.text.split('\n')[0])).toEqual([
      '# Quarterly review',
      '# Next steps',
      'Café menu, 8-bit text',
    ]);
  });

  it('puts the title first, keeps text stored in both the list and the drawing once, and keeps line breaks', () => {
    const [first] = readPowerPoint(presentation);
    expect(first?.text).toBe('# Quarterly review\nRevenue grew\nCosts fell');
  });

  it('finds a slide’s speaker notes through the notes list, and none for slides without', () => {
    expect(readPowerPoint(presentation).map((slide) => slide.notes)).toEqual([
      'Mention the new office',
      '',
      '',
    ]);
  });

  it("is what the extractor gives for a .ppt: one page per slide, each under the deck's title", async () => {
    const extractor = createExtractor(1);
    try {
      const document = await extractor.extractBuffer(presentation, 'review.ppt');
      expect(document.pages.map((page) => page.page)).toEqual([1, 2, 3]);
      expect(document.pages[1]?.text).toBe('## Next steps\nHire two engineers');
      expect(chunkDocument(document).map((chunk) => chunk.headings)).toEqual([
        ['Quarterly review'],
        ['Quarterly review', 'Next steps'],
        ['Quarterly review', 'Next steps'],
      ]);
    } finally {
      await extractor.close();
    }
  });

  it('rejects bytes that are not a presentation', () => {
    expect(() => readPowerPoint(new Uint8Array(512))).toThrow();
  });
});

const corpus = corpusOrSkip('the .ppt reader on real presentations (files/ppt)');
const corpusPpt = (name: string): Uint8Array => readFileSync(join(corpus ?? '', 'files/ppt', name));

describe.skipIf(corpus === undefined)('readPowerPoint on the corpus presentations', () => {
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
});
