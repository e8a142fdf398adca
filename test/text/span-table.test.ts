import { describe, expect, it } from 'vitest';
import { SpanTable } from '../../daemon/text/span-table.ts';

describe('SpanTable', () => {
  it('finds a string from a span of any text holding it', () => {
    const table = new SpanTable(100, 1000);
    table.add('one two three', 4, 7, 42);
    expect(table.find('two', 0, 3)).toBe(42);
    expect(table.find('and two more', 4, 7)).toBe(42);
    expect(table.find('Two', 0, 3)).toBe(-1);
    expect(table.find('tw', 0, 2)).toBe(-1);
    expect(table.find('twos', 0, 4)).toBe(-1);
  });

  it('holds many strings, the empty one and non-ASCII ones among them', () => {
    const table = new SpanTable(100_000, 1_000_000);
    const words = Array.from({ length: 20_000 }, (_, index) => `w${index}é`);
    words.forEach((word, index) => {
      table.add(word, 0, word.length, index);
    });
    table.add('', 0, 0, 7);
    expect(table.size).toBe(20_001);
    words.forEach((word, index) => {
      expect(table.find(word, 0, word.length)).toBe(index);
    });
    expect(table.find('x', 0, 0)).toBe(7);
  });

  it('says when it is full, and forgets everything when cleared', () => {
    const table = new SpanTable(2, 6);
    table.add('abc', 0, 3, 1);
    expect(table.hasRoomFor(3)).toBe(true);
    expect(table.hasRoomFor(4)).toBe(false);
    table.add('def', 0, 3, 2);
    expect(table.hasRoomFor(0)).toBe(false);
    table.clear();
    expect(table.size).toBe(0);
    expect(table.find('abc', 0, 3)).toBe(-1);
    expect(table.hasRoomFor(6)).toBe(true);
  });
});
