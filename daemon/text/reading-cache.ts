/**
 * What is read of a passage's text alone (its sentences, terms, word-vector rows), kept between queries: the
 * passages of one knowledge base come back query after query, and reading them is most of what ranking them costs.
 */
import { LRUCache } from 'lru-cache';

/**
 * The characters of text whose readings each cache keeps: about 300 chunks of 768 tokens, six queries' candidates
 * (a conversation's topic, or a whole small knowledge base). A reading takes 7 to 21 bytes per character of its
 * text, so each cache stays under about 21 MB.
 */
const CACHED_CHARACTERS = 1_000_000;

/**
 * A reader that keeps its readings, least recently used first out. Keyed by the text itself (and whatever else the
 * reading depends on), not a chunk's id: a reading is a function of its key alone, so no key names a stale one.
 */
export function cachedReader<Reading extends object>(
  read: (key: string) => Reading,
): (key: string) => Reading {
  const cache = new LRUCache<string, Reading>({
    maxSize: CACHED_CHARACTERS,
    sizeCalculation: (_reading, key) => Math.max(1, key.length),
  });
  return (key) => {
    let reading = cache.get(key);
    if (reading === undefined) {
      reading = read(key);
      cache.set(key, reading);
    }
    return reading;
  };
}
