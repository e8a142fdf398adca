import { randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulid';

const randomPool = new Uint8Array(4096);
let nextRandom = randomPool.length;

/**
 * ulid asks its generator for one byte at a time, and its default makes a crypto call for each (16 per id,
 * a visible share of a request's CPU); this one hands out bytes from a pool refilled 4 KiB at a time.
 */
function pooledRandom(): number {
  if (nextRandom === randomPool.length) {
    randomFillSync(randomPool);
    nextRandom = 0;
  }
  return randomPool[nextRandom++]! / 256;
}

const ulid = monotonicFactory(pooledRandom);

/** `chatcmpl` names an OpenAI-compatible chat completion, which is never stored. */
export type IdPrefix =
  | 'app'
  | 'src'
  | 'file'
  | 'conv'
  | 'msg'
  | 'key'
  | 'acct'
  | 'job'
  | 'purge'
  | 'chatcmpl';

/** A type prefix and a time-sortable random part, so ids sort by creation time. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${ulid()}`;
}
