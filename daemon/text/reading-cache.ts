/**
 * What is read of a passage whatever the query (its sentences, terms, word-vector rows), kept between queries: the
 * passages of one knowledge base come back query after query, and reading them is most of what ranking them costs.
 */
import { LRUCache } from 'lru-cache';

/**
 * The characters of text whose readings each cache keeps: about 300 chunks of 768 tokens, six queries' candidates
 * (a conversation's topic, or a whole small knowledge base). A reading takes 7 to 21 bytes per character of its
 * text, so each cache stays under about 22 MB, keys included.
 */
const CACHED_CHARACTERS = 1_000_000;

/**
 * A reader that keeps its readings, least recently used first out, each under the key `keyOf` gives its item: the
 * text itself and whatever else the reading depends on (a passage's headings), not a chunk's id, so that no key
 * can name a stale reading. Memoising a pure function, it is invisible to its callers but for their speed, like
 * the process's word vectors (word-vectors.ts).
 */
export function cachedReader<Item, Reading extends object>(
  keyOf: (item: Item) => string,
  read: (item: Item) => Reading,
): (item: Item) => Reading {
  const cache = new LRUCache<string, Reading>({
    maxSize: CACHED_CHARACTERS,
    sizeCalculation: (_reading, key) => Math.max(1, key.length),
  });
  return (item) => {
    const key = keyOf(item);
    let reading = cache.get(key);
    if (reading === undefined) {
      reading = read(item);
      cache.set(key, reading);
    }
    return reading;
  };
}
