import { Chalk } from 'chalk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TerminalMarkdown } from '../../src/cli/markdown.ts';
import { WordWrap } from '../../src/cli/wrap.ts';

const plain = new Chalk({ level: 0 });
const coloured = new Chalk({ level: 1 });

function render(deltas: readonly string[], colour = plain): string {
  const markdown = new TerminalMarkdown(colour);
  return deltas.map((delta) => markdown.push(delta)).join('') + markdown.end();
}

const sample = [
  '# Watering',
  '',
  'Tomatoes need **six hours** of sun and `deep` watering.',
  '- Aphids: soapy water',
  '* Slugs: copper tape',
  '> Keep the soil moist.',
  '```',
  'water --deep **not bold**',
  '```',
  '2 * 3 = 6',
].join('\n');

describe('TerminalMarkdown', () => {
  it('makes headings, bold, lists, quotes and code readable', () => {
    expect(render([sample])).toBe(
      [
        'Watering',
        '',
        'Tomatoes need six hours of sun and deep watering.',
        '  • Aphids: soapy water',
        '  • Slugs: copper tape',
        '│ Keep the soil moist.',
        '  water --deep **not bold**',
        '2 * 3 = 6',
      ].join('\n'),
    );
  });

  it('styles with colour on a terminal', () => {
    const output = render(['A **bold** word'], coloured);
    expect(output).toBe(`A ${coloured.bold('bold')} word`);
  });

  it('renders the same however the text is split into deltas', () => {
    const whole = render([sample]);
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: sample.length - 1 }), { maxLength: 30 }),
        (cuts) => {
          const points = [0, ...cuts.sort((a, b) => a - b), sample.length];
          const deltas = points.slice(1).map((end, index) => sample.slice(points[index], end));
          expect(render(deltas)).toBe(whole);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('writes plain text as soon as it arrives', () => {
    const markdown = new TerminalMarkdown(plain);
    expect(markdown.push('Hello wor')).toBe('Hello wor');
    expect(markdown.push('ld, **bo')).toBe('ld, ');
    expect(markdown.push('ld** end')).toBe('bold end');
  });

  it('prints an unclosed marker as text at the end', () => {
    expect(render(['a **never closed'])).toBe('a **never closed');
  });

  it('renders *italic*, leaving lone stars and products alone', () => {
    expect(render(['An *important* point, 2 * 3 and a*b.'], coloured)).toBe(
      `An ${coloured.italic('important')} point, 2 * 3 and a*b.`,
    );
    expect(render(['*whole line* then **bold** and *one*'], coloured)).toBe(
      `${coloured.italic('whole line')} then ${coloured.bold('bold')} and ${coloured.italic('one')}`,
    );
  });

  it('aligns a table, rules off its header and styles its cells, however it streams in', () => {
    const table = [
      'Costs by month:',
      '',
      '| Month | Cost | Note |',
      '|:------|-----:|------|',
      '| January | 120 | **high** |',
      '| May | 8 | |',
      '',
      'That is all.',
    ].join('\n');
    const expected = [
      'Costs by month:',
      '',
      'Month    Cost  Note',
      '───────  ────  ────',
      'January  120   high',
      'May      8',
      '',
      'That is all.',
    ].join('\n');
    expect(render([table])).toBe(expected);
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: table.length - 1 }), { maxLength: 20 }),
        (cuts) => {
          const points = [0, ...cuts.sort((a, b) => a - b), table.length];
          expect(render(points.slice(1).map((end, index) => table.slice(points[index], end)))).toBe(expected);
        },
      ),
      { numRuns: 200 },
    );
    expect(render(['| a | b |\n|---|---|\n| 1 | 2 |'])).toBe('a  b\n─  ─\n1  2');
  });
});

describe('WordWrap', () => {
  const wrap = (width: number, deltas: readonly string[]) => {
    const wrapper = new WordWrap(width);
    return deltas.map((delta) => wrapper.push(delta)).join('') + wrapper.end();
  };

  it('breaks lines between words to fit the width, however the text streams in', () => {
    const text = 'The quick brown fox jumps over the lazy dog.\nA new line starts afresh.';
    const expected = 'The quick brown\nfox jumps over the\nlazy dog.\nA new line starts\nafresh.';
    expect(wrap(18, [text])).toBe(expected);
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: text.length - 1 }), { maxLength: 20 }), (cuts) => {
        const points = [0, ...cuts.sort((a, b) => a - b), text.length];
        expect(
          wrap(
            18,
            points.slice(1).map((end, index) => text.slice(points[index], end)),
          ),
        ).toBe(expected);
      }),
    );
  });

  it('gives colour codes no width and keeps a word longer than the line whole', () => {
    expect(wrap(10, [`aaaa ${coloured.bold('bbbb')} cccc`])).toBe(`aaaa ${coloured.bold('bbbb')}\ncccc`);
    expect(wrap(5, ['tiny enormousword end'])).toBe('tiny\nenormousword\nend');
  });
});
