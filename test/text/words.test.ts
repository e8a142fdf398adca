import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  contentTerms,
  forEachWord,
  isStopWord,
  stem,
  term,
  wordCount,
  words,
} from '../../daemon/text/words.ts';

function spannedWords(text: string): string[] {
  const found: string[] = [];
  forEachWord(text, (source, start, end) => {
    found.push(source.slice(start, end).replace(/[A-Z]+/g, (letters) => letters.toLowerCase()));
  });
  return found;
}

describe('forEachWord', () => {
  it('gives the words `words` gives, across ASCII and Unicode runs', () => {
    const text = fc
      .array(
        fc.oneof(
          fc.string({ maxLength: 8 }),
          fc.constantFrom(' ', '  ', '\n', '\t', '-', '.', "'", ':', ',', '\u00a0', '\u3000'),
          fc.constantFrom('Word', 'CAFÉ', 'café', 'cafe\u0301', 'Straße', 'ﬁne', '½', 'x²', 'İstanbul'),
          fc.constantFrom('ΟΔΟΣ', 'ΟΔΟΣ.Β', 'ΑΣ', 'Σ', 'ΣΑ', 'ὀδυσσεύς', '東京', '😀', 'a1b2', 'ǅ'),
        ),
        { maxLength: 30 },
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (value) => {
        expect(spannedWords(value)).toEqual(words(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('reads ASCII in place and hands other runs over as words', () => {
    const seen: [string, number, number][] = [];
    const text = 'Hello, café world';
    forEachWord(text, (source, start, end) => {
      seen.push([source, start, end]);
    });
    expect(seen).toEqual([
      [text, 0, 5],
      ['cafe', 0, 4],
      [text, 12, 17],
    ]);
  });
});

describe('words, stems and stop words', () => {
  it('reads a number written as a word as its digits, but "one", as often no number', () => {
    expect(term('seven')).toBe('7');
    expect(term('ninety')).toBe('90');
    expect(term('one')).toBe('one');
    expect(contentTerms('Twenty-one of the forty two')).toEqual(['21', '42']);
  });

  it('reads the highest, the lowest and the newest as the extremes they are, but not the other superlatives', () => {
    expect(['highest', 'maximal', 'maximum'].map(term)).toEqual(Array(3).fill(term('maximum')));
    expect(['lowest', 'minimal', 'minimum'].map(term)).toEqual(Array(3).fill(term('minimum')));
    expect(term('newest')).toBe(term('latest'));
    expect(term('largest')).not.toBe(term('maximum'));
    expect(term('high')).not.toBe(term('maximum'));
  });

  it('lower-cases, folds diacritics and splits at punctuation', () => {
    expect(words("Café au lait, s'il vous plaît: 3.5 €")).toEqual([
      'cafe',
      'au',
      'lait',
      's',
      'il',
      'vous',
      'plait',
      '3',
      '5',
    ]);
  });

  it('meets plurals and tenses, and leaves short words and numbers alone', () => {
    expect(['teams', 'played', 'playing', 'cities', 'boxes', 'classes', 'bus', 'axis'].map(stem)).toEqual([
      'team',
      'play',
      'play',
      'city',
      'box',
      'class',
      'bus',
      'axis',
    ]);
    expect(['was', '1990s', '50th', 'a1b2'].map(stem)).toEqual(['was', '1990s', '50th', 'a1b2']);
  });

  it('matches forms by terms that drop a final e, which the frozen stem keeps', () => {
    expect(['release', 'released', 'releases', 'license', 'licensed'].map(term)).toEqual([
      'releas',
      'releas',
      'releas',
      'licens',
      'licens',
    ]);
    expect(['the', 'one', '1e', 'free', 'freed'].map(term)).toEqual(['the', 'one', '1e', 'fre', 'fre']);
    expect(stem('release')).toBe('release');
  });

  it('matches the past of a verb in "-y" with its other forms, and keeps a base in "-ie" whole', () => {
    expect(['tried', 'tries', 'try', 'applied', 'apply'].map(term)).toEqual([
      'try',
      'try',
      'try',
      'apply',
      'apply',
    ]);
    expect(['died', 'tied'].map(term)).toEqual(['died', 'tied']);
    expect(stem('tried')).toBe('tri');
  });

  it("matches an irregular verb's past forms with its base and other forms", () => {
    expect(['wore', 'worn', 'wear', 'wearing'].map(term)).toEqual(['wear', 'wear', 'wear', 'wear']);
    expect(['found', 'finding', 'sent', 'sending', 'made', 'making'].map(term)).toEqual([
      'find',
      'find',
      'send',
      'send',
      'mak',
      'mak',
    ]);
    expect(stem('wore')).toBe('wore');
  });

  it('matches a noun made from a verb with the verb, and keeps short words and other endings whole', () => {
    const pairs = [
      ['deliveries', 'delivered'],
      ['attachments', 'attaching'],
      ['installation', 'installed'],
      ['implementation', 'implemented'],
      ['removal', 'removing'],
      ['acceptance', 'accepts'],
      ['references', 'referring'],
      ['reference', 'referenced'],
      ['measure', 'measured'],
      ['contributions', 'contributed'],
      ['accompaniment', 'accompanied'],
      ['marriage', 'married'],
      ['coverage', 'covering'],
      ['failures', 'failed'],
    ];
    for (const [noun, verb] of pairs) expect(term(noun!), noun).toBe(term(verb!));
    expect(
      ['station', 'nation', 'misery', 'payment', 'signal', 'ensure', 'feature', 'creature', 'message'].map(
        term,
      ),
    ).toEqual(['station', 'nation', 'misery', 'payment', 'signal', 'ensur', 'featur', 'creatur', 'messag']);
    // Nouns whose verb's stem would be another word keep their own; so do "-ience" nouns.
    expect(['exception', 'instances', 'experience', 'balance'].map(term)).toEqual([
      'exception',
      'instanc',
      'experienc',
      'balanc',
    ]);
    expect(term('experience')).not.toBe(term('experiment'));
    expect(stem('delivery')).toBe('delivery');
  });

  it('matches forms whose ending doubled a consonant, and keeps short words and bases ending in ll, ss or zz', () => {
    expect(['setting', 'set', 'stopped', 'stop', 'added', 'add'].map(term)).toEqual([
      'set',
      'set',
      'stop',
      'stop',
      'add',
      'add',
    ]);
    expect(['called', 'passed', 'buzzing', 'zoo', 'egg'].map(term)).toEqual([
      'call',
      'pass',
      'buzz',
      'zoo',
      'egg',
    ]);
    expect(stem('setting')).toBe('sett');
  });

  it('drops function words from content terms, keeping order and repeats', () => {
    expect(isStopWord('the')).toBe(true);
    expect(isStopWord('lighthouse')).toBe(false);
    expect(contentTerms('The rockets of the rocket programme')).toEqual(['rocket', 'rocket', 'programm']);
  });

  it('counts the words of a reply by whitespace', () => {
    expect(wordCount('  One two\n\nthree [1]. ')).toBe(4);
    expect(wordCount('')).toBe(0);
  });
});
