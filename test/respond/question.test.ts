import { describe, expect, it } from 'vitest';
import { readQuestion, saysSuperlative } from '../../daemon/respond/question.ts';

describe('question', () => {
  it('takes the focus from the word a what-question names its answer by', () => {
    expect(readQuestion('What is the name of the stadium where it was played?').focus).toBe('stadium');
    expect(readQuestion('Which hotel did the Broncos use?').focus).toBe('hotel');
    expect(readQuestion('Who won?').focus).toBeUndefined();
    // "What" is the subject of a verb: no kind of thing is named.
    expect(readQuestion('What happens if I run the jar on its own?').focus).toBeUndefined();
    expect(readQuestion('What caused the fire?').focus).toBeUndefined();
    expect(readQuestion('Which causes are listed?').focus).toBe('caus');
  });

  it('does not look for the verb framing a question what happens', () => {
    expect([...readQuestion('What happens if I run the jar on its own?').terms.keys()]).toEqual([
      'run',
      'jar',
    ]);
    expect([...readQuestion('When did it happen?').terms.keys()]).toEqual(['happen']);
  });

  it('does not look for "take place", which says only that an event happened', () => {
    expect([...readQuestion('Where did Super Bowl 50 take place?').terms.keys()]).toEqual([
      'super',
      'bowl',
      '50',
    ]);
    expect([...readQuestion('When did the rebellions take place?').terms.keys()]).toEqual(['rebellion']);
    expect([...readQuestion('Which place did he take?').terms.keys()]).toEqual(['plac', 'tak']);
  });

  it('does not look for the adjective a question measures with', () => {
    expect([...readQuestion('How big was the slab that broke loose?').terms.keys()]).toEqual([
      'slab',
      'break',
      'loos',
    ]);
    expect([...readQuestion('How fast was the avalanche moving?').terms.keys()]).toEqual(['avalanch', 'mov']);
    // An amount is said with "long": "about half a page long".
    expect([...readQuestion('How long is the MIT license?').terms.keys()]).toEqual(['long', 'mit', 'licens']);
    expect([...readQuestion('Which trail is long and fast?').terms.keys()]).toEqual([
      'trail',
      'long',
      'fast',
    ]);
  });

  it('reads a phrasal verb as the word documents use for it', () => {
    expect([...readQuestion('When did Tika 2.0.0 come out?').terms.keys()]).toEqual([
      'tika',
      '2.0.0',
      'releas',
    ]);
    expect(readQuestion('How do I switch off the spell checker?').sequence).toEqual([
      'disabl',
      'spell',
      'checker',
    ]);
    expect(readQuestion('How do I get rid of old versions?').sequence).toEqual(['remov', 'old', 'version']);
    // "Come out of" is what resulted, not a release.
    expect(readQuestion('What came out of the meeting?').sequence).toEqual(['com', 'meet']);
    // What someone "did ... used to do" is what they formerly did; what they used to build something is a tool.
    expect(readQuestion('What did Tim Wangen used to do for work?').sequence).toEqual([
      'tim',
      'wangen',
      'former',
      'work',
    ]);
    expect(readQuestion('What did the Romans use to build roads?').sequence).toEqual([
      'roman',
      'use',
      'build',
      'road',
    ]);
    expect(readQuestion('What did police say was used to start the fire?').sequence).toContain('used');
    // The message itself is kept as written.
    expect(readQuestion('When did it come out?').text).toBe('When did it come out?');
  });

  it('tells a yes/no question, which asks to confirm what it says, from one asking for a thing', () => {
    for (const message of [
      'Is there a hot tub at Breezy Cove?',
      'and does it have a dock?',
      'Can Mammoth read .doc files?',
    ])
      expect(readQuestion(message).confirms).toBe(true);
    for (const message of [
      'The Bank of America Tower was previously known as what?',
      'Is it known which team won?',
      'Tell me about the Music Sound Interpreter presentation',
      'Islands of the Pacific',
    ])
      expect(readQuestion(message).confirms).toBe(false);
  });

  it('reads the most or least of a thing a question asks for, and a sentence ranking it alike', () => {
    const most = readQuestion('What is the most common type of Down Syndrome?').superlative!;
    expect(most).toEqual({ degree: 'most', adjective: 'common', noun: 'typ' });
    expect(saysSuperlative(most, '- Most prominent type is Trisomy 21')).toBe(true);
    // Another degree, or another noun, ranks something else.
    expect(saysSuperlative(most, 'The least prominent type is mosaicism.')).toBe(false);
    expect(saysSuperlative(most, 'The most prominent feature is a flat face.')).toBe(false);
    expect(readQuestion('What is the least visited island?').superlative?.degree).toBe('least');
    // Without "the", "most" counts: "most people" ranks nothing; nor does "most of the time".
    expect(readQuestion('Where does he spend most of the time?').superlative).toBeUndefined();
    expect(readQuestion('Where do most people live?').superlative).toBeUndefined();
  });
});
