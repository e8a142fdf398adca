import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quotableSentences, sentenceSpans, sentences } from '../../daemon/text/sentences.ts';

describe('sentences', () => {
  it('splits prose at sentence ends, not after abbreviations or initials', () => {
    expect(
      sentences('Dr. Smith met J. R. Tolkien in the U.S. in 1950. They spoke for hours! Did it matter? Yes.'),
    ).toEqual([
      'Dr. Smith met J. R. Tolkien in the U.S. in 1950.',
      'They spoke for hours!',
      'Did it matter?',
      'Yes.',
    ]);
    // Titles of office and the abbreviations of citations.
    expect(
      sentences(
        'On 23 June 2005, Rep. Joe Barton wrote to Sen. Ed Whitfield. Smith et al. (2005) disagreed.',
      ),
    ).toEqual([
      'On 23 June 2005, Rep. Joe Barton wrote to Sen. Ed Whitfield.',
      'Smith et al. (2005) disagreed.',
    ]);
    // Written otherwise, they are words that end sentences.
    expect(sentences('It is in San Jose, CA. It employs 40 people. He met Al. Then he left.')).toEqual([
      'It is in San Jose, CA.',
      'It employs 40 people.',
      'He met Al.',
      'Then he left.',
    ]);
  });

  it('keeps a sentence whole across line breaks and ends one at a blank line', () => {
    expect(sentences('The game was played\non February 7, 2016\n\nA new paragraph')).toEqual([
      'The game was played on February 7, 2016',
      'A new paragraph',
    ]);
  });

  it('reads table rows, list items and headings as sentences of their own', () => {
    expect(
      sentences('# Prices\n| item | cost |\n|---|---|\n| tea | 2 |\n- one thing\n- another thing'),
    ).toEqual(['# Prices', 'item; cost', 'tea; 2', '- one thing', '- another thing']);
  });

  it('ends a sentence at a line break after its final stop, whatever the next line starts with', () => {
    expect(sentences('people[0].quote: We are only human.\npeople[0].season: 1')).toEqual([
      'people[0].quote: We are only human.',
      'people[0].season: 1',
    ]);
  });

  it('reads a block of name: value records line by line, as e-mail headers and JSON leaves are', () => {
    expect(
      sentences('Subject: Signed mail\nFrom: Ann <ann@example.com>\nDate: 2005-05-08\n\nHi, it broke.'),
    ).toEqual(['Subject: Signed mail', 'From: Ann <ann@example.com>', 'Date: 2005-05-08', 'Hi, it broke.']);
  });

  it("ends no sentence inside a JSON leaf's quoted key, nor after an abbreviation a key opens with", () => {
    expect(
      sentences(
        'main.characters."Dr. Robert Ford"[5].quote: The piano doesn\'t murder the player.\nmain."Part 2. Overview"[0].text: It starts. It ends.',
      ),
    ).toEqual([
      'main.characters."Dr. Robert Ford"[5].quote: The piano doesn\'t murder the player.',
      'main."Part 2. Overview"[0].text: It starts.',
      'It ends.',
    ]);
    expect(sentences('He left. Then she said: go home.')).toEqual(['He left.', 'Then she said: go home.']);
  });
});

describe('sentences of slides and wrapped prose', () => {
  it("reads a slide's short lines in groups of a sentence's length, and wrapped prose lines as one sentence", () => {
    expect(
      sentences(
        'Richard Gedye\nChair\nCOUNTER\nCSV file, Microsoft Excel file, or a file that can be easily exported to Excel\nProvided at least monthly\nUpdated within two weeks of the end of each period.\nAll data must be supplied',
      ),
    ).toEqual([
      'Richard Gedye Chair COUNTER',
      'CSV file, Microsoft Excel file, or a file that can be easily exported to Excel',
      'Provided at least monthly',
      'Updated within two weeks of the end of each period.',
      'All data must be supplied',
    ]);
    expect(
      sentences(
        'The steering arm can be either raised to cause the robot\nto move in a straight line, or lowered to cause\nthe robot to turn.',
      ),
    ).toEqual([
      'The steering arm can be either raised to cause the robot to move in a straight line, or lowered to cause the robot to turn.',
    ]);
    // A long line breaking off before a short one that ends the sentence is wrapped prose too, not a bullet.
    expect(
      sentences(
        'March 22nd, 2007: Apache Tika project started\nThe Apache Tika project was formally started when the Tika proposal was accepted by the Apache\nIncubator PMC.',
      ),
    ).toEqual([
      'March 22nd, 2007: Apache Tika project started',
      'The Apache Tika project was formally started when the Tika proposal was accepted by the Apache Incubator PMC.',
    ]);
  });
});

describe('sentences of wrapped list items', () => {
  it('reads the lines a list item wraps onto as part of it, up to a blank line or the next item', () => {
    expect(
      sentences(
        '* Tika has been split to three different components for increased\n  modularity. The components are: core, parsers\n* Fixed a bug (TIKA-1)\nWrapped on.\n\nA paragraph.',
      ),
    ).toEqual([
      '* Tika has been split to three different components for increased modularity.',
      'The components are: core, parsers',
      '* Fixed a bug (TIKA-1) Wrapped on.',
      'A paragraph.',
    ]);
  });
});

describe('sentences of slide bullets and verse', () => {
  it("reads each bullet of a clause's length as a sentence of its own, with the lines that carry it on", () => {
    expect(
      sentences(
        'Auditing will be required beginning in 2004\nRFP will be issued to qualify auditors\nAuditing processes are under development\nUsage statistics need to be\ncredible\nconsistent',
      ),
    ).toEqual([
      'Auditing will be required beginning in 2004',
      'RFP will be issued to qualify auditors',
      'Auditing processes are under development',
      'Usage statistics need to be credible consistent',
    ]);
    expect(
      sentences(
        'Control of Heterogenous Stress-\nEngineered MEMS Microrobots\nthrough a Common Control Signal\nVahid Foroutan, Ratul Majumdar',
      ),
    ).toEqual([
      'Control of Heterogenous Stress- Engineered MEMS Microrobots through a Common Control Signal',
      'Vahid Foroutan, Ratul Majumdar',
    ]);
  });

  it('reads verse, whose lines end in commas, as the sentences that run across its lines', () => {
    expect(
      sentences(
        'Leave them alone and they will come home,\nBringing their tails behind them.\nIt happened one day, as she did stray\nInto a meadow hard by,\nThere she espied their tails side by side\nAll hung on a tree to dry.',
      ),
    ).toEqual([
      'Leave them alone and they will come home, Bringing their tails behind them.',
      'It happened one day, as she did stray Into a meadow hard by, There she espied their tails side by side All hung on a tree to dry.',
    ]);
  });
});

describe('sentenceSpans', () => {
  it('covers the text but for the whitespace between sentences', () => {
    const text = fc
      .array(
        fc.constantFrom(
          'Dr. Smith came.',
          'It rained!',
          'why?',
          ' ',
          '\n',
          'U.S. troops',
          'e.g. this',
          'x. Y',
          '…',
          'From: Ann',
          '| a | b |',
          '- item',
          'Short bullet line',
          'text,',
        ),
        {
          maxLength: 20,
        },
      )
      .map((parts) => parts.join(' '));
    fc.assert(
      fc.property(text, (value) => {
        const spans = sentenceSpans(value);
        let position = 0;
        for (const span of spans) {
          expect(value.slice(position, span.start).trim()).toBe('');
          expect(span.end).toBeGreaterThan(span.start);
          position = span.end;
        }
        expect(value.slice(position).trim()).toBe('');
      }),
    );
  });
});

describe('sentenceSpans of line-by-line text', () => {
  it('gives each JSON leaf, header and bullet a span of its own, as sentences reads them', () => {
    const text =
      'quotes[0].text: The piano does not murder the player\nquotes[0].author: Robert Ford\n\nAuditing will be required beginning in 2004\nRFP will be issued to qualify auditors';
    const spans = sentenceSpans(text).map(({ start, end }) => text.slice(start, end));
    expect(spans).toEqual([
      'quotes[0].text: The piano does not murder the player',
      'quotes[0].author: Robert Ford',
      'Auditing will be required beginning in 2004',
      'RFP will be issued to qualify auditors',
    ]);
    expect(spans).toEqual(sentences(text));
  });
});

describe('quotableSentences', () => {
  const block = [
    '```javascript',
    'var mammoth = require("mammoth");',
    '',
    '  mammoth.convertToHtml(input);',
    '```',
  ];

  it('reads a fenced code block whole, with its lines, and the prose around it as sentences', () => {
    const text = [
      'To convert a file, use `convertToHtml`:',
      '',
      ...block,
      '',
      'It returns a promise. Nothing else.',
    ];
    expect(quotableSentences(text.join('\n'))).toEqual([
      'To convert a file, use `convertToHtml`:',
      block.join('\n'),
      'It returns a promise.',
      'Nothing else.',
    ]);
    // The block's own indent goes; the indents inside it stay.
    expect(quotableSentences(`- An item:\n\n  ${block.join('\n  ')}`)[1]).toBe(block.join('\n'));
  });

  it('tells a chunk cut inside a block from one starting with prose', () => {
    // Prose before an odd number of bare fences: the first opens a block.
    const prose =
      'Run the test suite before you send a pull request.\n\n```\nnpm test\n```\n\nThen:\n\n```\nnpm run build';
    expect(quotableSentences(prose)).toEqual([
      'Run the test suite before you send a pull request.',
      '```\nnpm test\n```',
      'Then:',
      '```\nnpm run build\n```',
    ]);
    // Cut in a block at both ends: a fence naming a language only opens one.
    const cut = '    });\n});\n```\n\nTables are converted to HTML tables.\n\n```js\nconst result = 1;';
    expect(quotableSentences(cut)).toEqual([
      '```\n    });\n});\n```',
      'Tables are converted to HTML tables.',
      '```js\nconst result = 1;\n```',
    ]);
    // Closed with its own marks, a block indented in a list item without its indent.
    expect(quotableSentences('Use it like this:\n\n~~~\nrun();')).toEqual([
      'Use it like this:',
      '~~~\nrun();\n~~~',
    ]);
    expect(quotableSentences('        run();\n        ```\n\nIt runs.')).toEqual([
      '```\nrun();\n```',
      'It runs.',
    ]);
    // A block showing a block, inside a longer fence.
    expect(quotableSentences('````md\n```js\nrun();\n```\n````')).toEqual([
      '````md\n```js\nrun();\n```\n````',
    ]);
  });

  it('reads a line of many tildes as a divider, not a fence', () => {
    const letter =
      'Welcome.\n\n~~~~~~~~~~~~~~~~\n\nThe regatta starts on 12 May.\n\n~~~~~~~~~~~~~~~~\n\nThe dinner is on 20 May.';
    expect(quotableSentences(letter)).toContain('The regatta starts on 12 May.');
  });

  it('reads a block cut at either edge of a chunk as far as it goes, with its missing fence', () => {
    // Bare and after no label: the fence closes a block begun in the chunk before.
    expect(quotableSentences('mammoth.convertToHtml(input);\n```\n\nIt returns a promise.')).toEqual([
      '```\nmammoth.convertToHtml(input);\n```',
      'It returns a promise.',
    ]);
    expect(quotableSentences('Use it like this:\n\n```\nmammoth.convertToHtml(input);')).toEqual([
      'Use it like this:',
      '```\nmammoth.convertToHtml(input);\n```',
    ]);
    expect(quotableSentences('Use it like this:\n```js\nrun();\n```\nThen this:\n```js\nstop();')).toEqual([
      'Use it like this:',
      '```js\nrun();\n```',
      'Then this:',
      '```js\nstop();\n```',
    ]);
  });
});
