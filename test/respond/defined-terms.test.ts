import { describe, expect, it } from 'vitest';
import { candidateSentences } from '../../daemon/respond/candidates.ts';
import { termsDefined, withDefinitions } from '../../daemon/respond/defined-terms.ts';
import { composeReply } from '../../daemon/respond/offline.ts';
import type { ContextPassage } from '../../daemon/respond/types.ts';

const licence: ContextPassage = {
  number: 1,
  sourceName: 'readme.doc',
  sourceId: 'src_readme',
  page: 1,
  score: 0.6,
  text:
    'License and Credits\nCopyright 2006-2008 Raymond Camden\n\n' +
    'Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in compliance with the License. ' +
    'You may obtain a copy of the License at\n\nhttp://www.apache.org/licenses/LICENSE-2.0\n\n' +
    'Unless required by applicable law or agreed to in writing, software distributed under the License is distributed on an "AS IS" BASIS, ' +
    'WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.',
};

describe('termsDefined', () => {
  it.each([
    ['Licensed under the Apache License, Version 2.0 (the "License"); you may not...', ['License']],
    ['Acme Widgets Ltd (hereinafter referred to as “the Company”) agrees...', ['Company']],
    [
      'This agreement ("Service Agreement") is made between (the "Customer") and us.',
      ['Service Agreement', 'Customer'],
    ],
    ['He said "License" twice (the license).', []],
    ['A (the "lowercase") term is no defined term.', []],
    ['Acme Ltd ("The Company") agrees.', ['Company']],
  ])('%s', (sentence, terms) => {
    expect(termsDefined(sentence)).toEqual(terms);
  });
});

describe('withDefinitions', () => {
  const candidates = candidateSentences([licence]);
  const sentence = (start: string) => candidates.find((candidate) => candidate.sentence.startsWith(start))!;

  it('puts the sentence defining a term before a chosen sentence referring to it', () => {
    const chosen = [sentence('Unless required')];
    expect(withDefinitions(chosen, candidates).map((candidate) => candidate.sentence.slice(0, 20))).toEqual([
      'Licensed under the A',
      'Unless required by a',
    ]);
  });

  it('adds nothing when the definition is chosen already, or no chosen sentence refers to a term', () => {
    const both = [sentence('Licensed under'), sentence('Unless required')];
    expect(withDefinitions(both, candidates)).toEqual(both);
    const unrelated = [sentence('Copyright')];
    expect(withDefinitions(unrelated, candidates)).toEqual(unrelated);
  });

  it('puts a definition only a supporting sentence needs after the best one, before that sentence', () => {
    const contract: ContextPassage = {
      ...licence,
      sourceId: 'src_contract',
      text: 'Acme Widgets Ltd (the "Company") supplies the parts. Payment is due in 30 days. The Company ships within a week.',
    };
    const [defining, best, needing] = candidateSentences([contract]);
    expect(withDefinitions([best!, needing!], [defining!, best!, needing!])).toEqual([
      best,
      defining,
      needing,
    ]);
    // "The Company", opening a sentence, refers to it as "the Company" does.
    expect(withDefinitions([needing!], [defining!, needing!])).toEqual([defining, needing]);
  });

  it('takes no definition from another source', () => {
    const other = candidateSentences([{ ...licence, number: 2, sourceId: 'src_other' }]);
    const chosen = [sentence('Unless required')];
    expect(withDefinitions(chosen, other)).toEqual(chosen);
  });
});

describe('a reply quoting a defined term', () => {
  it('names what the term stands for', () => {
    const reply = composeReply('Under which license is the software distributed?', [licence]);
    expect(reply.text).toContain('Apache License, Version 2.0');
  });
});
