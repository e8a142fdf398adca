import { describe, expect, it } from 'vitest';
import { candidateSentences } from '../../daemon/respond/candidates.ts';
import { firstFindingFirst } from '../../daemon/respond/first-finding.ts';
import { readQuestion } from '../../daemon/respond/question.ts';

describe('firstFindingFirst', () => {
  const [negated, label, note] = candidateSentences([
    {
      number: 1,
      sourceName: 'README.md',
      sourceId: 'src_readme',
      page: 1,
      score: 0.8,
      text:
        'It will not match any text that is small caps because of its paragraph or run style.\n\n' +
        'Match explicitly small caps text:\n\n```\nsmall-caps\n```\n\n' +
        'Note that this matches text that has had small caps explicitly applied to it.',
    },
  ]);
  const ranked = (scores: number[]) =>
    [negated!, label!, note!].map((candidate, index) => ({
      candidate,
      score: scores[index]!,
      coverage: 0.5,
    }));
  const first = (question: string, scores: number[]) =>
    firstFindingFirst(readQuestion(question), ranked(scores))[0]!.candidate.sentence;

  it('puts a sentence saying what to do before one saying what does not happen, for a question asking what to do', () => {
    const howTo = 'How do I match small caps text in a Mammoth style map?';
    expect(first(howTo, [8.88, 8.55, 7.75])).toBe('Match explicitly small caps text:');
    // Not when it is scored much lower, nor when the question asks what does not happen, nor what a thing does.
    expect(first(howTo, [8.88, 6.5, 6.4])).toBe(negated!.sentence);
    expect(first('How do I tell what small caps text it will not match?', [8.88, 8.55, 7.75])).toBe(
      negated!.sentence,
    );
    expect(first('Which small caps text does the matcher match?', [8.88, 8.55, 7.75])).toBe(
      negated!.sentence,
    );
    // "Can I..." may be answered by what cannot be done.
    expect(first('Can I match small caps text in a style map?', [8.88, 8.55, 7.75])).toBe(negated!.sentence);
  });

  it('reads a "not" in a clause of purpose as no negation', () => {
    const [purpose, other] = candidateSentences([
      {
        number: 1,
        sourceName: 'server.md',
        sourceId: 'src_server',
        page: 1,
        score: 0.8,
        text: "Set log_passwords to off so the server doesn't log passwords. The server logs every request.",
      },
    ]);
    const findings = [purpose!, other!].map((candidate, index) => ({
      candidate,
      score: 8 - index / 2,
      coverage: 0.5,
    }));
    const question = readQuestion('How do I stop the server from logging passwords?');
    expect(firstFindingFirst(question, findings)[0]!.candidate).toBe(purpose);
  });

  it('puts a block of code showing what to type before a sentence, for a question asking how to do something', () => {
    const [where, code, other] = candidateSentences([
      {
        number: 1,
        sourceName: 'README.md',
        sourceId: 'src_readme',
        page: 1,
        score: 0.8,
        text:
          '**From the command line**: unzip the tool into a directory and run it from inside it.\n\n' +
          '```bash\ntool document.pdf         # Markdown\ntool --text document.pdf  # plain text\n```\n\n' +
          'The default output is Markdown.',
      },
    ]);
    const findings = (scores: number[]) =>
      [where!, code!, other!].map((candidate, index) => ({
        candidate,
        score: scores[index]!,
        coverage: 0.5,
      }));
    const first = (question: string, scores: number[]) =>
      firstFindingFirst(readQuestion(question), findings(scores))[0]!.candidate;
    const howTo = 'How do I get plain text instead of Markdown from the command line?';
    expect(first(howTo, [5.9, 5.0, 4.0])).toBe(code);
    // Not when it is scored much lower, nor for a question asking what a thing is.
    expect(first(howTo, [5.9, 4.5, 4.0])).toBe(where);
    expect(first('What does the command line give instead of plain text?', [5.9, 5.0, 4.0])).toBe(where);
    // Nor a block holding none of the question's words, however few the best sentence holds.
    expect(first('How do I set up Harbour?', [5.9, 5.0, 4.0])).toBe(where);
  });

  it('puts the line filling in the field a question asks for first, when scored nearly as well as the best', () => {
    const [asking, copies] = candidateSentences([
      {
        number: 1,
        sourceName: 'form.docx',
        sourceId: 'src_form',
        page: 1,
        score: 0.8,
        text: 'Please state below how many copies the funder requires.\n\nNumber of Copies: 9',
      },
    ]);
    const [elsewhere] = candidateSentences([
      {
        number: 2,
        sourceName: 'shop.md',
        sourceId: 'src_shop',
        page: 1,
        score: 0.7,
        text: 'Number of Copies: 40',
      },
    ]);
    const question = readQuestion('How many copies of the application does the funder want?');
    const first = (findings: [typeof asking, number][]) =>
      firstFindingFirst(
        question,
        findings.map(([candidate, score]) => ({ candidate: candidate!, score, coverage: 0.5 })),
      )[0]!.candidate;
    expect(
      first([
        [asking, 8.9],
        [copies, 6.3],
      ]),
    ).toBe(copies);
    // Not when it is scored much lower ("Port: 8080" under "The admin console listens on port 9090"), nor a line
    // of another source than the best sentence's.
    expect(
      first([
        [asking, 8.9],
        [copies, 5.5],
      ]),
    ).toBe(asking);
    expect(
      first([
        [asking, 8.9],
        [elsewhere, 8.5],
      ]),
    ).toBe(asking);
  });
});
