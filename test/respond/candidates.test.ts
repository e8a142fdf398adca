import { describe, expect, it } from 'vitest';
import {
  answeredFor,
  candidateSentences,
  labelledValue,
  repeats,
  sectionOf,
} from '../../daemon/respond/candidates.ts';
import type { ContextPassage } from '../../daemon/respond/types.ts';
import { term } from '../../daemon/text/words.ts';

function passage(text: string, number = 1): ContextPassage {
  return { sourceId: `s${number}`, sourceName: `s${number}.md`, page: 1, text, score: 1, number };
}

describe('candidateSentences', () => {
  const text =
    '# The Bell Rock Lighthouse\n\nThe lighthouse was finished in 1810. It was built by Robert Stevenson.';

  it('reads whole sentences with what they lean on, and the heading after them', () => {
    const candidates = candidateSentences([passage(text)]);
    expect(candidates.map((candidate) => candidate.sentence)).toEqual([
      'The lighthouse was finished in 1810.',
      'It was built by Robert Stevenson.',
      'The Bell Rock Lighthouse',
    ]);
    expect(candidates[1]!.previous.has(term('finished'))).toBe(true);
    expect(candidates[1]!.previous.has(term('bell'))).toBe(true);
    expect(candidates[2]!.heading).toBe(true);
  });

  it('gives the same candidates for a passage read before, each passage its own, and a repeat once', () => {
    const first = candidateSentences([passage(text)]);
    const again = candidateSentences([passage(text)]);
    expect(again.map(({ passage: _, ...rest }) => rest)).toEqual(
      first.map(({ passage: _, ...rest }) => rest),
    );
    const twice = candidateSentences([passage(text, 1), passage(text, 2)]);
    expect(twice).toHaveLength(first.length);
    expect(twice.every((candidate) => candidate.passage.number === 1)).toBe(true);
  });

  it('leaves out a row of links, which names a project in every address and says nothing of it', () => {
    const readMe =
      '[![build](https://ci.example.org/harbour/badge.svg)](https://ci.example.org/harbour) ' +
      '[![npm](https://img.example.org/npm/harbour.svg)](https://npm.example.org/harbour)\n\n' +
      'Harbour books berths at the north quay. The licence is at https://example.org/harbour/LICENSE for all to read.';
    expect(candidateSentences([passage(readMe)]).map((candidate) => candidate.sentence)).toEqual([
      'Harbour books berths at the north quay.',
      'The licence is at https://example.org/harbour/LICENSE for all to read.',
    ]);
  });

  it('leaves out a fragment of fewer than three words, but not a field and its value', () => {
    const costs =
      'Total Cost\n- Direct Labor: $5,724\n- Parts: $325\n\nFollow-up.\n\nThe parts came from one shop.';
    expect(candidateSentences([passage(costs)]).map((candidate) => candidate.sentence)).toEqual([
      '- Direct Labor: $5,724',
      '- Parts: $325',
      'The parts came from one shop.',
    ]);
  });

  it('keeps a first sentence opening with a small letter under the heading its chunk opens with, not one cut', () => {
    const underHeading = '# harbourctl\n\nharbourctl is a tool that books berths. It reads the tides.';
    expect(candidateSentences([passage(underHeading)]).map((candidate) => candidate.sentence)).toEqual([
      'harbourctl is a tool that books berths.',
      'It reads the tides.',
    ]);
    const cut = 'and books berths at the quay. It reads the tides. Ships wait at the bar.';
    expect(candidateSentences([passage(cut, 2)]).map((candidate) => candidate.sentence)).toEqual([
      'It reads the tides.',
      'Ships wait at the bar.',
    ]);
  });
});

describe('labelledValue', () => {
  const introduced = (text: string, start: string) =>
    labelledValue(
      candidateSentences([passage(text)]).find((candidate) => candidate.sentence.startsWith(start))!,
    );

  it('is what a label introduces, and the answer to a question the document asks itself', () => {
    expect(introduced('Deadline for Submission:\n\n30 June 2004', 'Deadline')).toBe('30 June 2004');
    const faq =
      'Motivation – Why ROOT ?\n\nWe want a tool that is easy to use for histogramming and fitting.';
    expect(introduced(faq, 'Motivation')).toBe(
      'We want a tool that is easy to use for histogramming and fitting.',
    );
  });

  it("is a list's items when a label introduces one, each item's first sentence, to the list's end", () => {
    const text =
      'The following features are supported:\n\n* Headings of every level.\n\n* Tables of any size.\nTheir borders are ignored.\n\n* Images in the text.\n\nOther text follows.';
    expect(introduced(text, 'The following')).toBe(
      'Headings of every level; Tables of any size; Images in the text',
    );
    // An item the label quotes is not quoted again.
    const candidates = candidateSentences([passage(text)]);
    const label = candidates.find((candidate) => candidate.sentence.startsWith('The following'))!;
    const item = candidates.find((candidate) => candidate.sentence.includes('Tables'))!;
    expect(repeats(item, label)).toBe(true);
    // A label before one item, or none, introduces what follows it as before.
    expect(introduced('Mammoth supports these:\n\n* Headings.\n\nOther text.', 'Mammoth supports')).toBe(
      '* Headings.',
    );
  });

  it('is what follows a sentence ending where its object should be, as a page puts a row of names after it', () => {
    const page =
      'Lakeview is recommended by. National Geographic Traveler, Travel Leisure, The New York Times';
    expect(introduced(page, 'Lakeview')).toBe(
      'National Geographic Traveler, Travel Leisure, The New York Times',
    );
    expect(introduced('Formats such as. Word and PDF are read.', 'Formats')).toBe('Word and PDF are read.');
    // A sentence ending in "by" as a word of its own is whole.
    expect(introduced('The bridge stands nearby. It was built in 1890.', 'The bridge')).toBeUndefined();
  });

  it('is nothing after a plain sentence, or for a question another question follows', () => {
    expect(introduced('The game was played in 2016. It was cold.', 'The game')).toBeUndefined();
    expect(
      introduced('- Who is the client?\n- What is the project?\n- Why build it?', '- Who'),
    ).toBeUndefined();
  });
});

describe('answeredFor', () => {
  const row =
    'Can You Create Derivative Works? GPL v3.0: Yes, but all source code must be distributed under GPL. ' +
    'LGPL v3.0: Yes, but derivative software must be released under a LGPL license. BSD: Yes\n\n' +
    'Attribution? MIT: Must be included.';
  const candidates = candidateSentences([passage(row)]);
  const asked = candidates.find((candidate) => candidate.sentence.startsWith('Can You'))!;
  const answer = (...names: string[]) => labelledValue(answeredFor(new Set(names), asked, candidates));

  it("is a source's question answered by the sentence after it naming what the user's question adds", () => {
    expect(answer('lgpl')).toBe(
      'LGPL v3.0: Yes, but derivative software must be released under a LGPL license.',
    );
    // Names the source's question holds, or none, leave the sentence after it as its answer.
    expect(answer()).toBe('GPL v3.0: Yes, but all source code must be distributed under GPL.');
    expect(answer('work')).toBe('GPL v3.0: Yes, but all source code must be distributed under GPL.');
  });

  it('looks no further than the next question, and leaves a sentence that asks nothing as it is', () => {
    expect(answer('mit')).toBe('GPL v3.0: Yes, but all source code must be distributed under GPL.');
    const cell = candidates.find((candidate) => candidate.sentence.startsWith('LGPL'))!;
    expect(answeredFor(new Set(['lgpl']), cell, candidates)).toBe(cell);
  });
});

describe('sectionOf', () => {
  it('reads the headings over a sentence, outermost first, and none inside code, a block shown in a block too', () => {
    const text =
      '# Guide\n\n## Styles\n\n````md\n```\n# not a heading\n```\n````\n\n### Bold\n\nBold text is wrapped in strong tags.';
    const bold = candidateSentences([passage(text)]).find((candidate) =>
      candidate.sentence.startsWith('Bold'),
    )!;
    expect(sectionOf(bold)).toEqual([
      { level: 1, text: 'Guide' },
      { level: 2, text: 'Styles' },
      { level: 3, text: 'Bold' },
    ]);
  });
});
