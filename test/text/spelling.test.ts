import { describe, expect, it } from 'vitest';
import { americanSpelling, withOtherSpellings } from '../../daemon/text/spelling.ts';
import { term, words } from '../../daemon/text/words.ts';

describe('British and American spellings', () => {
  it('meet as one term', () => {
    const pairs = [
      ['colours', 'colors'],
      ['favourite', 'favorite'],
      ['organisation', 'organization'],
      ['organised', 'organizing'],
      ['analysed', 'analyze'],
      ['centres', 'center'],
      ['fibre', 'fiber'],
      ['travelled', 'traveled'],
      ['modelling', 'model'],
      ['controlled', 'control'],
    ];
    for (const [british, american] of pairs) expect(term(british!), british).toBe(term(american!));
  });

  it('leave words that only look like them apart from their kin', () => {
    for (const word of ['four', 'hour', 'flour', 'wise', 'noise', 'raised', 'called', 'spelling', 'hundred'])
      expect(americanSpelling(word), word).toBe(word);
    // Read alike, the bare word and its inflections still meet.
    expect(term('installed')).toBe(term('install'));
    expect(term('installs')).toBe(term('install'));
    expect(term('recalled')).toBe(term('recall'));
    expect(term('contours')).toBe(term('contour'));
  });

  it('send a full-text search both spellings', () => {
    const query = 'Which colours did the centre analyze?';
    expect(withOtherSpellings(query, words(query)).split(' ').slice(6)).toEqual([
      'colors',
      'center',
      'analyse',
    ]);
    expect(withOtherSpellings('no variants here', words('no variants here'))).toBe('no variants here');
  });
});
