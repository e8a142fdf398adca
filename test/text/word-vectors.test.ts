import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readWordVectorTable, tablePath } from '../../daemon/text/word-vector-table.ts';
import { rowSimilarity, wordVectors } from '../../daemon/text/word-vectors.ts';

const vectors = wordVectors();
const similarity = (first: string, second: string) =>
  rowSimilarity(vectors, vectors.rows.get(first)!, vectors.rows.get(second)!);

describe('word vectors', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'ckb-word-vectors-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('holds the 100,000 most frequent words, most frequent first, as unit vectors', () => {
    expect(vectors.rows.get('the')).toBe(0);
    expect(vectors.rows.size).toBe(100_000);
    expect(similarity('river', 'river')).toBeCloseTo(1, 2);
    expect(similarity('ocean', 'ocean')).toBeCloseTo(1, 2);
  });

  it('puts words of like meaning nearer than unrelated ones', () => {
    expect(similarity('problem', 'concern')).toBeGreaterThan(0.5);
    expect(similarity('prevent', 'protect')).toBeGreaterThan(0.5);
    expect(similarity('car', 'automobile')).toBeGreaterThan(0.5);
    expect(similarity('river', 'money')).toBeLessThan(0.3);
  });

  it('derives the table where there is none, leaving no partial file, and reads it as the install does', () => {
    const path = join(scratch, 'table.bin');
    readWordVectorTable(path);
    expect(readdirSync(scratch)).toEqual(['table.bin']);
    const derived = readWordVectorTable(path);
    expect(derived.rows.size).toBe(vectors.rows.size);
    expect(derived.values).toEqual(vectors.values);
    expect(derived.scales).toEqual(vectors.scales);
  });

  it('derives a table cut short again rather than misread it', () => {
    const path = join(scratch, 'cut.bin');
    writeFileSync(path, readFileSync(tablePath()).subarray(0, 1_000_000));
    const read = readWordVectorTable(path);
    expect(read.rows.size).toBe(100_000);
    expect(readFileSync(path).length).toBe(readFileSync(tablePath()).length);
  });
});
