import { describe, expect, it } from 'vitest';
import { contentStems } from '../../daemon/respond/content-words.ts';
import { readQuestion } from '../../daemon/respond/question.ts';
import { featureRows, SENTENCE_FEATURES } from '../../daemon/respond/sentence-features.ts';
import { SENTENCE_WEIGHTS } from '../../daemon/respond/sentence-weights.ts';
import type { ContextPassage } from '../../daemon/respond/types.ts';
import { term } from '../../daemon/text/words.ts';

function passage(text: string): ContextPassage {
  return { number: 1, sourceName: 'notes.md', sourceId: 'src_1', page: 1, text, score: 0.9 };
}

/** Each candidate sentence and the named feature of it. */
function feature(question: string, text: string, name: (typeof SENTENCE_FEATURES)[number]) {
  const at = SENTENCE_FEATURES.indexOf(name);
  return Object.fromEntries(
    featureRows(readQuestion(question), [passage(text)]).map((row) => [
      row.candidate.sentence,
      row.features[at],
    ]),
  );
}

/** The coverage feature of the row whose sentence starts so. */
function coverageIn(rows: ReturnType<typeof featureRows>, start: string): number {
  return rows.find((row) => row.candidate.sentence.startsWith(start))!.features[
    SENTENCE_FEATURES.indexOf('coverage')
  ]!;
}

describe('sentence features', () => {
  it('are the ones the committed weights were trained on, in their order', () => {
    // A feature added or moved without retraining (bench/train-responder.ts --write) would be weighed as another.
    expect(SENTENCE_WEIGHTS.features).toEqual(SENTENCE_FEATURES);
  });

  it('finds how often as a frequency, not as any number', () => {
    const found = feature(
      'How often must the usage reports be provided?',
      'Vendors provide 12 usage reports. Usage reports must be provided monthly.',
      'numberFound',
    );
    expect(found['Vendors provide 12 usage reports.']).toBe(0);
    expect(found['Usage reports must be provided monthly.']).toBe(1);
  });

  it("credits the words of a source's name to its sentences meeting the question in words of their own", () => {
    const list = {
      ...passage(
        'The Harvard sentences are a collection of sample phrases. The hogs were fed chopped corn and garbage.',
      ),
      sourceName: 'harvard_sentences.json',
    };
    const rows = featureRows(readQuestion('What did the hogs get to eat in the Harvard sentence list?'), [
      list,
    ]);
    const coverage = (start: string) =>
      rows.find((row) => row.candidate.sentence.startsWith(start))!.features[
        SENTENCE_FEATURES.indexOf('coverage')
      ]!;
    expect(coverage('The hogs')).toBeGreaterThan(coverage('The Harvard'));
    // Not to a sentence meeting nothing else of the question, nor for a word pointing at any source.
    const hours = {
      ...passage('Opening hours of the library:\n\nSee the noticeboard at the entrance.'),
      sourceName: 'library.html',
    };
    const label = featureRows(readQuestion('What are the opening hours of the library?'), [hours]);
    expect(label.find((row) => row.candidate.sentence.startsWith('See'))!.features[0]).toBe(0);
    const report = {
      ...passage('This period saw strong growth. The retention of staff improved.'),
      sourceName: 'document.pdf',
    };
    const pointing = featureRows(readQuestion('What is the document retention period?'), [report]);
    expect(
      pointing.find((row) => row.candidate.sentence.startsWith('This period'))!.features[0],
    ).toBeLessThan(0.5);
  });

  it("credits the words of a deck's title slide to its sentences meeting the question in words of their own", () => {
    const deck = (page: number, text: string): ContextPassage => ({
      ...passage(text),
      sourceName: 'survey.pptx',
      page,
      number: page,
      chunkIndex: page - 1,
    });
    const rows = featureRows(
      readQuestion('What did the North Quay team ask the Tide Board to add to its website?'),
      [
        deck(
          1,
          '# Harbour Survey\n\nFindings\nNorth Quay Team Requests\nFor the North Quay Team and Tide Board, May 3, 2024',
        ),
        deck(16, '## Requests\n\nA page on the website where any member may upload tide charts.'),
      ],
    );
    expect(coverageIn(rows, 'A page on the website')).toBeGreaterThan(coverageIn(rows, 'For the North Quay'));
    // Only a source's first chunk opens with its title page, not a later short section of a text's one page.
    const guide = (chunkIndex: number, text: string): ContextPassage => ({
      ...passage(text),
      sourceName: 'guide.md',
      chunkIndex,
      number: chunkIndex + 1,
    });
    const sections = featureRows(readQuestion('What is the upload limit of the Pro plan?'), [
      guide(
        0,
        `# Limits\n\nThe free plan limits each upload to 1 GB. ${'Larger files are refused at once. '.repeat(10)}`,
      ),
      guide(1, '# Pro plan\n\nThe Pro plan is the paid tier. It costs $10 a month.'),
    ]);
    expect(coverageIn(sections, 'The free plan')).toBeLessThan(1);
  });

  it("credits a follow-up's topic to every sentence of a source that names it", () => {
    const question = readQuestion('How much did it cost?', 'What is the Music Sound Interpreter?');
    const deck = (page: number, text: string): ContextPassage => ({ ...passage(text), page, number: page });
    const other: ContextPassage = {
      ...passage('The cone costs five cents on Mondays.'),
      sourceId: 'src_2',
      number: 3,
    };
    const rows = featureRows(question, [
      deck(1, 'The Music Sound Interpreter, by Nikolaos Eleftheriadis.'),
      deck(2, 'Total Cost of Project: $8,962.'),
      other,
    ]);
    const coverage = (start: string) =>
      rows.find((row) => row.candidate.sentence.startsWith(start))!.features[
        SENTENCE_FEATURES.indexOf('coverage')
      ]!;
    expect(coverage('Total Cost')).toBe(1);
    expect(coverage('Total Cost')).toBeGreaterThan(coverage('The Music'));
    expect(coverage('Total Cost')).toBeGreaterThan(coverage('The cone'));
  });

  it("finds the number a label's value on the next line holds", () => {
    const found = feature(
      'How many copies does the funder want?',
      'Please state how many copies the funder requires.\n\nNumber of Copies:\n\n9\n\nSignature:',
      'numberFound',
    );
    expect(found['Please state how many copies the funder requires.']).toBe(0);
    expect(found['Number of Copies:']).toBe(1);
  });

  it('lets a heading compete only when it holds the question and the kind asked for', () => {
    const text =
      '## Release 4.0.0 - 8/18/2026\n\n* Fixed the parser.\n\n## Older releases from 2020\n\nSee the archive of releases.';
    const rows = featureRows(readQuestion('When was 4.0.0 released?'), [passage(text)]);
    expect(rows.map((row) => row.candidate.sentence)).toContain('Release 4.0.0 - 8/18/2026');
    expect(rows.map((row) => row.candidate.sentence)).not.toContain('Older releases from 2020');
    const other = featureRows(readQuestion('What did 4.0.0 fix?'), [passage(text)]);
    expect(other.map((row) => row.candidate.sentence)).not.toContain('Release 4.0.0 - 8/18/2026');
    // The names the question uses tell its source, not the heading: a changelog's headings do not repeat them.
    const first = '## Release 0.1-incubating - 12/27/2007\n\n1. TIKA-5 - Port Metadata Framework from Nutch';
    const named = featureRows(readQuestion("When was Tika's first incubating release?"), [passage(first)]);
    expect(named.map((row) => row.candidate.sentence)).toContain('Release 0.1-incubating - 12/27/2007');
    // Unless they are most of its words: then they are what it asks about, and the heading must hold them.
    const slides =
      '## Code of Practice, Release 1 January 2003\n\nBasic principles\n\n## Auditing from 2004\n\nAudits begin.';
    const mostlyNamed = featureRows(
      readQuestion('When was Release 1 of the COUNTER Code of Practice issued?'),
      [passage(slides)],
    ).map((row) => row.candidate.sentence);
    expect(mostlyNamed).toContain('Code of Practice, Release 1 January 2003');
    expect(mostlyNamed).not.toContain('Auditing from 2004');
  });

  it('lets a slide title compete as a heading does, not as a sentence', () => {
    const slide =
      'Main Competing Product\nInteractive Fanlight\n- Displays lights in a fan-like manner\n- Priced at $2,675.00';
    const sentences = (question: string) =>
      featureRows(readQuestion(question), [passage(slide)]).map((row) => row.candidate.sentence);
    expect(sentences('How much does the Interactive Fanlight cost?')).not.toContain(
      'Main Competing Product Interactive Fanlight',
    );
    expect(sentences('How much does the Interactive Fanlight cost?')).toContain('- Priced at $2,675.00');
    // A first line ending in "of" is prose wrapped onto the next line, as on a scanned page.
    const wrapped =
      'The breakwater was rebuilt in granite after the storm of\nMarch, at a cost of eighty thousand pounds.';
    expect(
      featureRows(readQuestion('What was the breakwater rebuilt in?'), [passage(wrapped)]).some((row) =>
        row.candidate.sentence.includes('granite'),
      ),
    ).toBe(true);
    // A `label: value` first line is a record of the passage, not its title.
    const record = 'title: The Fanlight Manual\nauthor: Rosemary Hale';
    expect(
      featureRows(readQuestion('What is the title of the manual?'), [passage(record)]).map(
        (row) => row.candidate.sentence,
      ),
    ).toContain('title: The Fanlight Manual');
  });

  it("leaves out a sentence of only the question's words when the question asks for something", () => {
    const text = 'It was Elyse Saugstad. Elyse Saugstad wore a backpack with an air bag.';
    const sentences = (question: string) =>
      featureRows(readQuestion(question), [passage(text)]).map((row) => row.candidate.sentence);
    expect(sentences('What gear was Elyse Saugstad wearing?')).toEqual([
      'Elyse Saugstad wore a backpack with an air bag.',
    ]);
    // A yes/no question may be confirmed in its own words, whatever clause it holds.
    expect(sentences('Was it Elyse Saugstad?')).toContain('It was Elyse Saugstad.');
    expect(sentences('Did they know who it was? Was it Elyse Saugstad?')).toContain('It was Elyse Saugstad.');
    expect(sentences('And what gear was Elyse Saugstad wearing?')).not.toContain('It was Elyse Saugstad.');
  });
});

describe('content stems', () => {
  it('keeps a dotted version whole, so 0.4 does not meet 4.0.0', () => {
    expect(contentStems('When was Tika 4.0.0 released?')).toEqual(['tika', '4.0.0', 'releas']);
    expect(contentStems('Release 0.4 - 07/14/2009')).not.toContain('4.0.0');
  });

  it('drops what is left of a contraction, and only that', () => {
    expect(contentStems("I'm sure you're right, I've said we'll go if I'd known")).toEqual([
      'sur',
      'right',
      'say',
      'go',
      'know',
    ]);
    expect(contentStems('vitamin D and Renewable Energy (RE)')).toEqual([
      'vitamin',
      'd',
      'renewabl',
      'energy',
      're',
    ]);
  });

  it('drops the idiom "at the latest", which says by when and not which is newest', () => {
    expect(contentStems('Orders must reach us by Friday at the latest')).toEqual([
      'order',
      'reach',
      'friday',
    ]);
    expect(contentStems('Anonymous ftp (latest version 3.5)')).toContain(term('newest'));
  });

  it("reads an abbreviation's plural as the abbreviation, and leaves a short word ending in s", () => {
    expect(contentStems('a set of IPs and IDs')).toEqual(['set', 'ip', 'id']);
    expect(contentStems('an IP address')).toEqual(['ip', 'address']);
    expect(contentStems('Gas leaks: yes')).toEqual(['gas', 'leak', 'yes']);
  });

  it("reads an identifier in camel case as itself and its parts, and leaves a name's capitals", () => {
    expect(contentStems('a new CacheMemoryBudget')).toEqual([
      'new',
      'cachememorybudget',
      'cach',
      'memory',
      'budget',
    ]);
    expect(contentStems('{"extractPreviews": false}')).toEqual([
      'extractpreview',
      'extract',
      'preview',
      'fals',
    ]);
    expect(contentStems('BlogCFC at McDonald on YouTube')).toEqual(['blogcfc', 'mcdonald', 'youtub']);
    expect(contentStems('eBay, jQuery and the iPhone')).toEqual(['ebay', 'jquery', 'iphon']);
    expect(contentStems('überCool')).toEqual(['ubercool', 'uber', 'cool']);
  });

  it('reads a word with a letter before a hyphen as the word spelled without it', () => {
    expect(contentStems('the Western Union e-mail')).toEqual(['western', 'union', 'email']);
    expect(contentStems('an email and an X-ray')).toEqual(['email', 'xray']);
    expect(contentStems('a B-52 over the A-10')).toEqual(['b', '52', '10']);
  });

  it('reads a number written as a word as its digits', () => {
    expect(contentStems('Who had five sacks in nine games?')).toEqual(['5', 'sack', '9', 'gam']);
    expect(contentStems('twenty-two of forty, Sixty one')).toEqual(['22', '40', '61']);
  });

  it('keeps "named" where a question asks what a thing was named after, and drops it elsewhere', () => {
    expect(contentStems('Who was Stevens Pass named after?')).toEqual(['steven', 'pass', 'nam']);
    expect(contentStems('The pass was named for John Frank Stevens.')).toContain('nam');
    expect(contentStems('What was the pass named?')).toEqual(['pass']);
  });
});
