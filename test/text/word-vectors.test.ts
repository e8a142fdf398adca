import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { askedWords, nearMeaning } from '../../daemon/text/meaning-match.ts';
import { ensureTable, rowSimilarity, tablePath, wordVectors } from '../../daemon/text/word-vectors.ts';
import { term } from '../../daemon/text/words.ts';

const vectors = wordVectors();
const similarity = (first: string, second: string) =>
  rowSimilarity(vectors, vectors.rows.get(first)!, vectors.rows.get(second)!);

describe('word vectors', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'ckb-word-vectors-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('holds the most frequent words first, as unit vectors', () => {
    expect(vectors.rows.get('the')).toBe(0);
    expect(vectors.rows.size).toBe(100_000);
    expect(similarity('river', 'river')).toBeCloseTo(1, 2);
  });

  it('puts words of like meaning nearer than unrelated ones', () => {
    expect(similarity('problem', 'concern')).toBeGreaterThan(0.5);
    expect(similarity('prevent', 'protect')).toBeGreaterThan(0.5);
    expect(similarity('river', 'money')).toBeLessThan(0.3);
  });

  it('builds the same table again where there is none, leaving no partial file', () => {
    const path = join(scratch, 'table.bin');
    ensureTable(path);
    expect(readdirSync(scratch)).toEqual(['table.bin']);
    expect(readFileSync(path).equals(readFileSync(tablePath()))).toBe(true);
  });
});

describe('nearMeaning', () => {
  const asked = askedWords('What problem did the dam cause?', () => 1);

  it('counts an asked word the text says in other words, by how nearly', () => {
    const held = (text: string) => new Set(text.split(' '));
    const said = nearMeaning(asked, (term) => held('dam').has(term), 'the dam raised a concern'.split(' '));
    const unsaid = nearMeaning(asked, (term) => held('dam').has(term), 'the dam is tall'.split(' '));
    expect(said).toBeGreaterThan(unsaid);
    expect(said).toBeLessThan(2);
  });

  it('leaves out the words the text holds exactly, and words it has no vector for', () => {
    expect(asked.map((word) => word.term)).toEqual(['problem', 'dam', 'cause'].map(term));
    const all = nearMeaning(asked, () => true, ['problem', 'dam', 'cause']);
    expect(all).toBe(0);
    expect(nearMeaning(asked, () => false, ['zzzqqq'])).toBe(0);
  });
});
