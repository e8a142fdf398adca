import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chunkDocument } from '../../daemon/ingest/chunk.ts';
import { parseDocument } from '../../daemon/ingest/extract/parse.ts';
import { layoutPageText, type PlacedText } from '../../daemon/ingest/extract/pdf-layout.ts';
import { corpusOrSkip } from '../support/corpus.ts';

const WIDTH = 612;

/** A line of text as pdf.js would place it, each word a run of 10-point text, words 5 units apart. */
function line(text: string, x: number, y: number): PlacedText[] {
  const runs: PlacedText[] = [];
  let left = x;
  for (const word of text.split(' ')) {
    runs.push({ text: word, x: left, y, width: word.length * 5, height: 10 });
    left += word.length * 5 + 5;
  }
  return runs;
}

describe('layoutPageText', () => {
  it('keeps the drawing order of a page set in one column, with a blank line between paragraphs', () => {
    const items = [
      ...line('The first paragraph starts here and', 72, 700),
      ...line('ends on its second line.', 72, 688),
      ...line('A second paragraph follows it.', 72, 650),
    ];
    expect(layoutPageText(items, WIDTH)).toBe(
      'The first paragraph starts here and\nends on its second line.\n\nA second paragraph follows it.',
    );
  });

  it('reads two columns left then right, band by band, and moves a caption across both out of a sentence', () => {
    // Drawn in the order a PDF often draws: a line of each column in turn, and a caption in the middle.
    const items = [
      ...line('A Title Across The Whole Page Of The Paper Set In Two Columns', 100, 740),
      ...line('The left column starts', 50, 700),
      ...line('The right column goes', 330, 700),
      ...line('and reads down here,', 50, 688),
      ...line('on after the left one', 330, 688),
      ...line('then runs on into', 50, 676),
      ...line('and continues below', 330, 676),
      ...line('Table 1: a caption drawn across both columns of the page', 100, 600),
      ...line('the right column.', 50, 560),
      ...line('the caption too.', 330, 560),
    ];
    expect(layoutPageText(items, WIDTH)).toBe(
      [
        'A Title Across The Whole Page Of The Paper Set In Two Columns',
        '',
        'The left column starts\nand reads down here,\nthen runs on into',
        'The right column goes\non after the left one\nand continues below',
        'the right column.',
        'the caption too.',
        '',
        'Table 1: a caption drawn across both columns of the page',
      ].join('\n'),
    );
  });

  it('keeps sub- and superscripts on their line, and reads a table row as one line of its own', () => {
    const items: PlacedText[] = [
      ...line('Voltage V', 50, 700),
      { text: 'dl', x: 96, y: 698, width: 6, height: 6 },
      ...line('rises here and', 105, 700),
      ...line('In the right column', 330, 700),
      ...line('falls.', 50, 688),
      ...line('text goes on.', 330, 688),
      ...line('NHG', 60, 500),
      ...line('STRING', 200, 500),
      ...line('SESat', 360, 500),
    ];
    const text = layoutPageText(items, WIDTH);
    expect(text).toContain('Voltage Vdl rises here and\nfalls.\nIn the right column\ntext goes on.');
    expect(text.endsWith('NHG\nSTRING\nSESat')).toBe(true);
  });
});

const corpus = corpusOrSkip('the two-column layout of a real paper (files/pdf/testJournalParser.pdf)');

describe.skipIf(!corpus)('the shared two-column paper', () => {
  it('has a sentence running across a table caption whole in one chunk', async () => {
    const path = join(corpus!, 'files/pdf/testJournalParser.pdf');
    const document = await parseDocument(new Uint8Array(await readFile(path)), 'testJournalParser.pdf');
    const chunks = chunkDocument(document).map((chunk) => chunk.text.replace(/\s+/g, ' '));
    // On page 9 this sentence runs from the foot of the right column, past Table 1's caption, into the left one.
    const sentence = 'Consequently, 𝑉𝑢𝑙, 𝑗+ will set Cj to state “01” and Ck =”00” and will release D1 of';
    expect(chunks.some((chunk) => chunk.includes(sentence))).toBe(true);
  });
});
