import { Field, List, makeVector, Utf8, vectorFromArray } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { utf8Column, utf8ListColumn } from '../../daemon/store/utf8-column.ts';

describe('utf8Column', () => {
  it('holds every value as apache-arrow itself would: multi-byte, surrogate pairs, empty and null', () => {
    const values = ['plain', 'café', '中文文本', 'rocket 🚀 launch', '', null, 'a\u0000b', undefined, 'z'];
    const column = utf8Column(values);
    const expected = vectorFromArray(
      values.map((value) => value ?? null),
      new Utf8(),
    );
    expect(makeVector(column).toArray()).toEqual(expected.toArray());
    expect(column.nullCount).toBe(2);
    // The builder's offsets buffer has spare capacity past the last value's end.
    expect([...column.valueOffsets]).toEqual([
      ...expected.data[0]!.valueOffsets.subarray(0, values.length + 1),
    ]);
  });

  it('has no null bitmap when no value is null', () => {
    const column = utf8Column(['one', 'two']);
    expect(column.nullCount).toBe(0);
    expect(makeVector(column).toArray()).toEqual(['one', 'two']);
  });

  it('makes an empty column of no values', () => {
    expect(makeVector(utf8Column([])).length).toBe(0);
  });

  it('makes lists of strings, empty lists included, as apache-arrow would', () => {
    const type = new List(new Field('item', new Utf8(), true));
    const lists = [['Guide', 'Part 1'], [], ['Ünïcode 🚀'], [], ['a', 'b', 'c']];
    const column = utf8ListColumn(lists, type);
    const read = (vector: ReturnType<typeof makeVector>) =>
      [...vector].map((list) => [...(list as Iterable<string>)]);
    expect(read(makeVector(column))).toEqual(read(vectorFromArray(lists, type)));
    expect(read(makeVector(column))).toEqual(lists);
  });
});
