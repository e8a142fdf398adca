import { describe, expect, it } from 'vitest';
import { titlePage } from '../../daemon/text/title-page.ts';

describe('titlePage', () => {
  it('is the first-level heading a text opens with and the lines under it, up to the next heading', () => {
    const slide = '# Harbour Survey\nNorth Quay Team\nFor the Tide Board, May 3, 2024';
    expect(titlePage(`\n${slide}\n\n## Findings\nThe quay needs dredging.`)).toBe(slide);
    expect(titlePage(`${slide}\r\n`)).toBe(slide);
    expect(titlePage(slide)).toBe(slide);
  });

  it('is none under a heading of another level or none, nor over a long opening section or code', () => {
    expect(titlePage('## Findings\nThe quay needs dredging.')).toBeUndefined();
    expect(titlePage('#hashtag\nThe quay needs dredging.')).toBeUndefined();
    expect(titlePage('The quay needs dredging.\n# Harbour Survey')).toBeUndefined();
    const words = (count: number) => 'word '.repeat(count).trim();
    expect(titlePage(`# Mammoth\n\n${words(59)}`)).toBe(`# Mammoth\n\n${words(59)}`);
    expect(titlePage(`# Mammoth\n\n${words(60)}`)).toBeUndefined();
    // A comment in a code block is no heading: the read-me's section runs on, and a title page holds no code.
    expect(titlePage('# Tool\n\nInstall it:\n\n```sh\n# install the tool\nnpm i tool\n```')).toBeUndefined();
  });
});
