import { type Data, type List, makeData, Utf8 } from 'apache-arrow';

/**
 * A UTF-8 Arrow column written into one buffer. apache-arrow's builder encodes each value into a buffer of its
 * own and copies it on, which cost most of the main thread's time in writing a commit's chunk texts.
 */
export function utf8Column(values: readonly (string | null | undefined)[]): Data<Utf8> {
  const length = values.length;
  const valueOffsets = new Int32Array(length + 1);
  // A UTF-16 code unit takes at most three bytes of UTF-8 (a surrogate pair, two units, takes four).
  let capacity = 0;
  for (const value of values) capacity += value ? value.length * 3 : 0;
  const bytes = Buffer.allocUnsafe(capacity);
  let nullBitmap: Uint8Array | undefined;
  let nullCount = 0;
  let written = 0;
  for (let index = 0; index < length; index++) {
    const value = values[index];
    if (value === null || value === undefined) {
      nullBitmap ??= new Uint8Array(Math.ceil(length / 8)).fill(0xff);
      nullBitmap[index >> 3]! &= ~(1 << (index & 7));
      nullCount += 1;
    } else if (value.length > 0) {
      written += bytes.write(value, written, 'utf8');
    }
    valueOffsets[index + 1] = written;
  }
  return makeData({
    type: new Utf8(),
    length,
    nullCount,
    ...(nullBitmap ? { nullBitmap } : {}),
    valueOffsets,
    data: bytes.subarray(0, written),
  });
}

/** A column of lists of strings (none of them null), as one UTF-8 column of every item and the lists' offsets. */
export function utf8ListColumn(lists: readonly (readonly string[])[], type: List<Utf8>): Data<List<Utf8>> {
  const valueOffsets = new Int32Array(lists.length + 1);
  const items: string[] = [];
  lists.forEach((list, index) => {
    for (const item of list) items.push(item);
    valueOffsets[index + 1] = items.length;
  });
  return makeData({ type, length: lists.length, nullCount: 0, valueOffsets, child: utf8Column(items) });
}
