import { describe, expect, it } from 'vitest';
import { markdownHeading, titlePage, withDeeperHeadings } from '../../daemon/text/headings.ts';

describe('markdownHeading', () => {
  it.each([
    ['## Usage', { level: 2, text: 'Usage' }],
    ['### Example  ', { level: 3, text: 'Example' }],
    ['#\tTabbed', { level: 1, text: 'Tabbed' }],
    // Closing #'s go when a space parts them from the text, as CommonMark reads them; "C#" keeps its own.
    ['## Title ##', { level: 2, text: 'Title' }],
    ['# C#', { level: 1, text: 'C#' }],
    ['## a ## b', { level: 2, text: 'a ## b' }],
  ])('%s', (line, heading) => {
    expect(markdownHeading(line)).toEqual(heading);
  });

  it.each(['#', '# ', '# #', '# ###', '#hashtag', '####### seven', 'text # not a heading'])(
    'reads no heading in %j',
    (line) => {
      expect(markdownHeading(line)).toBeUndefined();
    },
  );
});

describe('withDeeperHeadings', () => {
  it('puts each heading a level deeper, but one of level 6, and leaves other lines as they are', () => {
    expect(withDeeperHeadings('# Slide\ntext # not a heading\n## Part\n###### Deepest\n#hashtag')).toBe(
      '## Slide\ntext # not a heading\n### Part\n###### Deepest\n#hashtag',
    );
  });
});

describe('titlePage', () => {
  it('is the first-level heading a text opens with and the lines under it, up to the next heading', () => {
    const slide = '# Harbour Survey\nNorth Quay Team\nFor the Tide Board, May 3, 2024';
    expect(titlePage(`\n${slide}\n\n## Findings\nThe quay needs dredging.`)).toBe(slide);
    expect(titlePage(slide)).toBe(slide);
  });

  it('is none under a heading of another level, nor over a long opening section', () => {
    expect(titlePage('## Findings\nThe quay needs dredging.')).toBeUndefined();
    expect(titlePage('The quay needs dredging.\n# Harbour Survey')).toBeUndefined();
    expect(
      titlePage(`# Mammoth\n\n${'Mammoth converts documents to clean HTML. '.repeat(12)}`),
    ).toBeUndefined();
  });
});
