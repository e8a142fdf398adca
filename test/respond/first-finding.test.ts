import { describe, expect, it } from 'vitest';
import { type Candidate, candidateSentences } from '../../daemon/respond/candidates.ts';
import { firstFindingFirst, instructs } from '../../daemon/respond/first-finding.ts';
import { readQuestion } from '../../daemon/respond/question.ts';

/** The candidate sentences of one passage of a source named after `sourceName`. */
function sentencesOf(sourceName: string, text: string): Candidate[] {
  return candidateSentences([
    { number: 1, sourceName, sourceId: `src_${sourceName}`, page: 1, score: 0.8, text },
  ]);
}

/** The finding a question puts first, of candidates scored as given, in that order. */
function firstOf(question: string, scored: [Candidate | undefined, number][]): Candidate {
  const findings = scored.map(([candidate, score]) => ({ candidate: candidate!, score, coverage: 0.5 }));
  return firstFindingFirst(readQuestion(question), findings)[0]!.candidate;
}

describe('firstFindingFirst', () => {
  const [negated, label, note] = sentencesOf(
    'README.md',
    'It will not match any text that is small caps because of its paragraph or run style.\n\n' +
      'Match explicitly small caps text:\n\n```\nsmall-caps\n```\n\n' +
      'Note that this matches text that has had small caps explicitly applied to it.',
  );
  const first = (question: string, [negatedScore, labelScore, noteScore]: number[]) =>
    firstOf(question, [
      [negated, negatedScore!],
      [label, labelScore!],
      [note, noteScore!],
    ]);

  it('puts a sentence saying what to do before one saying what does not happen, for a question asking what to do', () => {
    const howTo = 'How do I match small caps text in a Mammoth style map?';
    expect(first(howTo, [8.88, 8.55, 7.75])).toBe(label);
    // Not when it is scored much lower, nor when the question asks what does not happen, nor what a thing does.
    expect(first(howTo, [8.88, 6.5, 6.4])).toBe(negated);
    expect(first('How do I tell what small caps text it will not match?', [8.88, 8.55, 7.75])).toBe(negated);
    expect(first('Which small caps text does the matcher match?', [8.88, 8.55, 7.75])).toBe(negated);
    // "Can I..." may be answered by what cannot be done.
    expect(first('Can I match small caps text in a style map?', [8.88, 8.55, 7.75])).toBe(negated);
  });

  it('puts a line naming a person by title and the role first, for a question asking who holds it, when scored near the best', () => {
    const [asking, named] = sentencesOf(
      'proposal.docx',
      'TO BE COMPLETED BY PRINCIPAL INVESTIGATOR\n\n1.Dr J Malins School of Art PRINCIPAL INVESTIGATOR',
    );
    const who = 'Who is the principal investigator of the proposal?';
    expect(
      firstOf(who, [
        [asking, 8.1],
        [named, 7],
      ]),
    ).toBe(named);
    // Not when scored far below it, nor for a question asking something else.
    expect(
      firstOf(who, [
        [asking, 8.1],
        [named, 4.5],
      ]),
    ).toBe(asking);
    expect(
      firstOf('What must the principal investigator complete?', [
        [asking, 8.1],
        [named, 7],
      ]),
    ).toBe(asking);
    // Nor a titled line not naming the role, nor before a best sentence naming the holder and the role.
    const [spoke, holder] = sentencesOf(
      'board.md',
      'Prof. Anne Martin spoke at the harbour board meeting.\n\nJo Smith is the chair of the harbour board.',
    );
    expect(
      firstOf(who, [
        [asking, 8.1],
        [spoke, 7],
      ]),
    ).toBe(asking);
    const [afterChair] = sentencesOf(
      'board.md',
      'Prof. Anne Martin spoke after the chair of the harbour board.',
    );
    expect(
      firstOf('Who is the chair of the harbour board?', [
        [holder, 8],
        [afterChair, 7.5],
      ]),
    ).toBe(holder);
    // Nor for a question whose answer names no role.
    const [designer, titled] = sentencesOf(
      'bridge.md',
      'Brunel designed the suspension bridge over the gorge.\n\nSir John Hawkshaw completed the suspension bridge in 1864.',
    );
    expect(
      firstOf('Who designed the suspension bridge?', [
        [designer, 8],
        [titled, 7.5],
      ]),
    ).toBe(designer);
  });

  it('puts a sentence telling the way to do something first, for a question asking how, when scored near the best', () => {
    const [result, way] = sentencesOf(
      'guide.doc',
      'If your folder was named "harbour", you have created a tide chart named harbour. ' +
        'One way to create a tide chart is to upload a folder of readings underneath the charts folder.',
    );
    const howTo = 'How can I make a tide chart by uploading a folder of readings?';
    expect(
      firstOf(howTo, [
        [result, 7],
        [way, 6.7],
      ]),
    ).toBe(way);
    // Not when scored far below it, nor for a question asking something else.
    expect(
      firstOf(howTo, [
        [result, 7],
        [way, 5.5],
      ]),
    ).toBe(result);
    expect(
      firstOf('What is the tide chart named after?', [
        [result, 7],
        [way, 6.7],
      ]),
    ).toBe(result);
  });

  it.each([
    ['Request the previous format explicitly with --xml.', true],
    ['To refresh the cache, visit the blog with ?reinit=1.', true],
    ['You may wish to consider reading each file in a separate process.', true],
    ['One way to create a tide chart is to upload a folder of readings.', true],
    ['Use of the --feet option was removed.', false],
    ['Go is a language.', false],
    ['Type 2 diabetes is common.', false],
    ['Press 0 on the keypad to reset the counter.', true],
    ['Add 2 cups of flour.', true],
    ['Update 4.2 removed the flag.', false],
    ['The tide tables are printed in metres.', false],
  ])('reads %j as telling what to do: %j', (sentence, telling) => {
    expect(instructs(sentence)).toBe(telling);
  });

  it('reads a "not" in a clause of purpose as no negation', () => {
    const [purpose, other] = sentencesOf(
      'server.md',
      "Set log_passwords to off so the server doesn't log passwords. The server logs every request.",
    );
    expect(
      firstOf('How do I stop the server from logging passwords?', [
        [purpose, 8],
        [other, 7.5],
      ]),
    ).toBe(purpose);
  });

  it('puts a block of code showing what to type before a sentence, for a question asking how to do something', () => {
    const [where, code, other] = sentencesOf(
      'README.md',
      '**From the command line**: unzip the tool into a directory and run it from inside it.\n\n' +
        '```bash\ntool document.pdf         # Markdown\ntool --text document.pdf  # plain text\n```\n\n' +
        'The default output is Markdown.',
    );
    const firstFor = (question: string, codeScore: number) =>
      firstOf(question, [
        [where, 5.9],
        [code, codeScore],
        [other, 4],
      ]);
    const howTo = 'How do I get plain text instead of Markdown from the command line?';
    expect(firstFor(howTo, 5)).toBe(code);
    // Not when it is scored much lower, nor for a question asking what a thing is.
    expect(firstFor(howTo, 4.5)).toBe(where);
    expect(firstFor('What does the command line give instead of plain text?', 5)).toBe(where);
    // Nor a block holding none of the question's words, however few the best sentence holds.
    expect(firstFor('How do I set up Harbour?', 5)).toBe(where);
  });

  it('puts the line filling in the field a question asks for first, when scored nearly as well as the best', () => {
    const [asking, copies] = sentencesOf(
      'form.docx',
      'Please state below how many copies the funder requires.\n\nNumber of Copies: 9',
    );
    const [elsewhere] = sentencesOf('shop.md', 'Number of Copies: 40');
    const question = 'How many copies of the application does the funder want?';
    expect(
      firstOf(question, [
        [asking, 8.9],
        [copies, 6.3],
      ]),
    ).toBe(copies);
    // Not when it is scored much lower ("Port: 8080" under "The admin console listens on port 9090"), nor a line
    // of another source than the best sentence's.
    expect(
      firstOf(question, [
        [asking, 8.9],
        [copies, 5.5],
      ]),
    ).toBe(asking);
    expect(
      firstOf(question, [
        [asking, 8.9],
        [elsewhere, 8.5],
      ]),
    ).toBe(asking);
  });

  it("puts a sentence stating a tool's default first only when its source holds as much of the question as the best's", () => {
    const [sample, shows] = sentencesOf(
      'sample.doc',
      'This is a sample Microsoft Word Document.\n\nThis document includes text that is BOLD and ITALIC.',
    );
    const [ignored] = sentencesOf(
      'converter.md',
      'By default, the underlining of any text is ignored since underlining can be confused with links in HTML documents.',
    );
    const question = 'Which kinds of text emphasis does the sample Word document show off?';
    expect(
      firstOf(question, [
        [sample, 5.7],
        [shows, 3.5],
        [ignored, 0.9],
      ]),
    ).toBe(sample);
    // Nor when another tool's source holds as many, but other, words of the question: "emphasis", not "sample".
    const [underlining, emphasis] = sentencesOf(
      'converter.md',
      'By default, the underlining of any text is ignored since underlining can be confused with links in HTML documents.\n\nWord documents often use underlining for emphasis.',
    );
    expect(
      firstOf('Which kinds of text emphasis does the sample Word document say it shows off?', [
        [sample, 5.7],
        [underlining, 0.9],
        [shows, 0.8],
        [emphasis, 0.5],
      ]),
    ).toBe(sample);
    const [stated] = sentencesOf(
      'sample.doc',
      'By default, text in the sample document is shown in Calibri.',
    );
    expect(
      firstOf(question, [
        [sample, 5.7],
        [stated, 0.9],
      ]),
    ).toBe(stated);
  });

  it('puts a sentence writing a web address first, for a question asking where', () => {
    const [changelog] = sentencesOf(
      'CHANGES.txt',
      "ExternalParser.check now returns false, so it's OK to run Tika with a security policy that forbids processes.",
    );
    const [security] = sentencesOf('README.md', 'See <https://tika.apache.org/security.html>.');
    const [none] = sentencesOf('README.md', 'The security team answers within a week.');
    const scored = (other: Candidate | undefined): [Candidate | undefined, number][] => [
      [changelog, 9.6],
      [other, 5.9],
    ];
    expect(firstOf("Where can I read about Tika's security policy?", scored(security))).toBe(security);
    expect(firstOf("And where do I read about Tika's security policy?", scored(security))).toBe(security);
    // Not for a question asking something else, nor where a thing is, nor before a sentence writing no address.
    expect(firstOf("What does Tika's security policy allow?", scored(security))).toBe(changelog);
    expect(firstOf("Where is Tika's security policy applied?", scored(security))).toBe(changelog);
    expect(firstOf("Where can I read about Tika's security policy?", scored(none))).toBe(changelog);
  });
});
