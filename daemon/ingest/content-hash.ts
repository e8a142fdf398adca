import { createHash } from 'node:crypto';
import type { ExtractedPage } from './types.ts';

/** Names the text a chunk is embedded from, so a vector made for that text before can be used again. */
export function contextHash(text: string): string {
  return createHash('sha256').update(text).digest('base64');
}

/**
 * SHA-256 (hex) of a document read from the web: its pages' numbers, addresses, titles and text, in order. Equal
 * hashes mean equal chunks, so a sync that finds its source's hash unchanged keeps the chunks it has.
 */
export function documentHash(pages: readonly ExtractedPage[]): string {
  const hash = createHash('sha256');
  for (const page of pages)
    hash.update(`${page.page}\n${page.url ?? ''}\n${page.title ?? ''}\n${page.text}\n\0`);
  return hash.digest('hex');
}
