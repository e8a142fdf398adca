/** As a signed 32-bit integer, like every hash `Math.imul` gives, so that an empty span's hash compares equal too. */
const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;
/** A slot holds a string's hash, where its characters start, its length and its value (-1 when empty). */
const SLOT_SIZE = 4;
const EMPTY = -1;

/**
 * Distinct strings, each with a value, looked up from a span of a larger text by comparing character codes in
 * place: a lookup slices nothing and allocates nothing, where a Map needs a fresh string per key and hashes it.
 * A slot keeps everything a lookup checks but the characters, so a hit reads two cache lines. Memory is bounded
 * by the owner, which asks `hasRoomFor` before adding and clears the table when there is none.
 */
export class SpanTable {
  /** Strings held. */
  size = 0;
  private readonly maxStrings: number;
  private readonly maxCharacters: number;
  private slots = new Int32Array(1024 * SLOT_SIZE).fill(EMPTY);
  private characters = new Uint16Array(1 << 14);
  private charactersUsed = 0;

  constructor(maxStrings: number, maxCharacters: number) {
    this.maxStrings = maxStrings;
    this.maxCharacters = maxCharacters;
  }

  /** The value of `text[start, end)`, or -1 when the table does not hold it. */
  find(text: string, start: number, end: number): number {
    const slots = this.slots;
    const hash = hashSpan(text, start, end);
    const mask = slots.length - SLOT_SIZE;
    for (
      let slot = firstSlot(hash, slots.length);
      slots[slot + 3] !== EMPTY;
      slot = (slot + SLOT_SIZE) & mask
    ) {
      if (
        slots[slot] === hash &&
        slots[slot + 2] === end - start &&
        this.holds(slots[slot + 1]!, text, start, end)
      )
        return slots[slot + 3]!;
    }
    return EMPTY;
  }

  hasRoomFor(length: number): boolean {
    return this.size < this.maxStrings && this.charactersUsed + length <= this.maxCharacters;
  }

  /** Adds `text[start, end)`, which `find` did not return, with a value of zero or more. */
  add(text: string, start: number, end: number, value: number): void {
    const length = end - start;
    if ((this.size + 1) * 2 * SLOT_SIZE > this.slots.length) this.growSlots();
    if (this.charactersUsed + length > this.characters.length)
      this.characters = grown(this.characters, this.charactersUsed + length);
    const from = this.charactersUsed;
    for (let index = 0; index < length; index++)
      this.characters[from + index] = text.charCodeAt(start + index);
    this.charactersUsed += length;
    this.size++;
    this.place(hashSpan(text, start, end), from, length, value);
  }

  clear(): void {
    this.size = 0;
    this.charactersUsed = 0;
    this.slots.fill(EMPTY);
  }

  private holds(from: number, text: string, start: number, end: number): boolean {
    const offset = from - start;
    for (let index = start; index < end; index++) {
      if (this.characters[offset + index] !== text.charCodeAt(index)) return false;
    }
    return true;
  }

  private place(hash: number, from: number, length: number, value: number): void {
    const slots = this.slots;
    const mask = slots.length - SLOT_SIZE;
    let slot = firstSlot(hash, slots.length);
    while (slots[slot + 3] !== EMPTY) slot = (slot + SLOT_SIZE) & mask;
    slots[slot] = hash;
    slots[slot + 1] = from;
    slots[slot + 2] = length;
    slots[slot + 3] = value;
  }

  private growSlots(): void {
    const old = this.slots;
    this.slots = new Int32Array(old.length * 2).fill(EMPTY);
    for (let slot = 0; slot < old.length; slot += SLOT_SIZE) {
      if (old[slot + 3] !== EMPTY) this.place(old[slot]!, old[slot + 1]!, old[slot + 2]!, old[slot + 3]!);
    }
  }
}

/** A copy of `array` with room for at least `size` elements, doubling so that repeated growth stays linear. */
export function grown<T extends Uint8Array | Uint16Array | Int32Array | Uint32Array | Float64Array>(
  array: T,
  size: number,
): T {
  const copy = new (array.constructor as new (length: number) => T)(Math.max(size, array.length * 2));
  copy.set(array);
  return copy;
}

function hashSpan(text: string, start: number, end: number): number {
  let hash = FNV_OFFSET;
  for (let index = start; index < end; index++) hash = Math.imul(hash ^ text.charCodeAt(index), FNV_PRIME);
  return hash;
}

/** Fibonacci hashing: the product's top bits, which every bit of the hash reaches. */
function firstSlot(hash: number, length: number): number {
  return (Math.imul(hash, 0x9e3779b1) >>> Math.clz32(length / SLOT_SIZE - 1)) * SLOT_SIZE;
}
