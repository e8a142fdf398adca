import { Chalk } from 'chalk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TerminalMarkdown } from '../../src/cli/markdown.ts';

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
});
