import MiniSearch from 'minisearch';
import type { RankedPassage } from '../retrieval-data.ts';

/** MiniSearch with its defaults (BM25+, no stemming, no fuzzy or prefix matching) over the same passages. */
export function createMiniSearchPeer(passages: RankedPassage[]) {
  const index = new MiniSearch<{ id: number; text: string }>({ fields: ['text'], storeFields: [] });
  index.addAll(passages.map((passage, id) => ({ id, text: passage.text })));
  return {
    search: (query: string, limit: number): RankedPassage[] =>
      index
        .search(query)
        .slice(0, limit)
        .map((result) => passages[result.id as number]!),
  };
}
