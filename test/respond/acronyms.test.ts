import { describe, expect, it } from 'vitest';
import { acronymAsked, acronymsDefined, definesAcronym } from '../../daemon/respond/acronyms.ts';
import { candidateSentences } from '../../daemon/respond/candidates.ts';
import type { ContextPassage } from '../../daemon/respond/types.ts';

describe('acronymsDefined', () => {
  it.each([
    ['The National Football League (NFL) champion', [['nfl', ['national', 'footbal', 'leagu']]]],
    ['the Food and Drug Administration (FDA) said', [['fda', ['food', 'drug', 'administr']]]],
    ['was named Most Valuable Player (MVP).', [['mvp', ['valuabl', 'player']]]],
    ['Local Area Networks (LANs) and more', [['lan', ['local', 'area', 'network']]]],
    // "Type" frames questions ("which type"), so no sentence's terms hold it either.
    ['a Document Type Definition (DTD) file', [['dtd', ['document', 'definition']]]],
    ['les États-Unis (ÉU)', [['eu', ['etat', 'unis']]]],
    // A word may give its run of capitals, and a common noun may follow a long form of capitalised words.
    [
      'Electromechanically SATurated Cluster system (ESATC)',
      [['esatc', ['electromechanically', 'saturat', 'cluster']]],
    ],
    ['a McDonald Foundation (MF) grant', [['mf', ['mcdonald', 'found']]]],
    ['the home team players (HT)', []],
    // A glossary's line defines the acronym opening it, when words of its first dozen spell it.
    ['EOI – Refers to Expression of Interest or Stage 1 applications', [['eoi', ['expression', 'interest']]]],
    ['PI: Principal Investigator', [['pi', ['principal', 'investigator']]]],
    ['URL: http://example.com/page', []],
    ['the United States (US) and the World Health Organization (WHO)', []],
    ['deoxyribonucleic acid (DNA)', []],
    ['the game was broadcast (CBS) live', []],
    ['a plain sentence without brackets', []],
    // Or the long form follows the acronym in brackets, its capitals spelling it.
    [
      'This type of STRING (STRIcly Non-nested hysteresis Gap) GCSR is sequential',
      [['str', ['stricly', 'non', 'nest', 'hysteresis', 'gap']]],
    ],
    ['the NFL (National Football League) season', [['nfl', ['national', 'footbal', 'leagu']]]],
    ['its sister station WBT-FM (99.3 FM)', []],
    ['the API (see Figure 3) returns', []],
  ])('%s', (text, defined) => {
    expect([...acronymsDefined(text)]).toEqual(defined);
  });
});

function passage(number: number, sourceId: string, text: string): ContextPassage {
  return { number, sourceName: `${sourceId}.txt`, sourceId, page: 1, score: 0.5, text };
}

describe('candidate sentences with the acronyms their source defines', () => {
  const candidates = candidateSentences([
    passage(
      1,
      'league',
      'The National Football League (NFL) plays every autumn. The Super Bowl ends its season.',
    ),
    passage(
      2,
      'league',
      'NFL Commissioner Roger Goodell praised the game. The National Football League has 32 teams.',
    ),
    passage(3, 'other', 'The NFL of this story is a made-up club. Its national league is small.'),
  ]);
  const stemsOf = (start: string) =>
    candidates.find((candidate) => candidate.sentence.startsWith(start))!.stems;

  it('hold the long form where they say the acronym, in any passage of the source', () => {
    expect([...stemsOf('NFL Commissioner')]).toEqual(
      expect.arrayContaining(['national', 'footbal', 'leagu']),
    );
  });

  it('hold the acronym where they say the long form', () => {
    expect(stemsOf('The National Football League has')).toContain('nfl');
  });

  it('leave the sentences of a source that defines no such acronym, and sentences holding neither form', () => {
    expect(stemsOf('The NFL of this story')).not.toContain('footbal');
    expect(stemsOf('Its national league')).not.toContain('nfl');
    expect(stemsOf('The Super Bowl')).not.toContain('nfl');
  });
});

describe('acronymAsked', () => {
  it.each([
    ['What does GCSR stand for?', 'GCSR'],
    ['What does GCSR stand for in the microrobot paper?', 'GCSR'],
    ['what does the acronym MVP mean', 'MVP'],
    ['What is NFL short for?', 'NFL'],
    ['What is ESATC short for in the MicroStressBot paper?', 'ESATC'],
    ['What does EOI mean on the research governance checklist?', 'EOI'],
    ['What is "ARL" an abbreviation of?', 'ARL'],
    ['In the microrobot control paper, what is STRING an abbreviation of?', 'STRING'],
    ['According to the report, what does EOI stand for?', 'EOI'],
    ['What does the NFL commissioner do?', undefined],
    ['What does Tika stand for?', undefined],
    ['Who does the NFL stand for?', undefined],
    ['What does NASA mean to you?', undefined],
    ['What does the acronym LANs stand for in this paper?', 'LANs'],
    ['What does GitHub stand for?', undefined],
  ])('%s', (message, acronym) => {
    expect(acronymAsked(message)).toBe(acronym);
  });

  it('tells a text defining the acronym from one using it', () => {
    expect(definesAcronym('and Global Control Selective Response (GCSR) [6].', 'GCSR')).toBe(true);
    expect(definesAcronym('GCSR uses the control matrix.', 'GCSR')).toBe(false);
  });
});
