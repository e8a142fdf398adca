import { describe, expect, it } from 'vitest';
import { markdownHeading, withDeeperHeadings } from '../../daemon/text/headings.ts';

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
