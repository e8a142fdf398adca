import type { SearchBody, SearchResult } from '../../src/api/search.ts';
import type { Passage, Retriever } from '../retrieve/index.ts';
import type { Store } from '../store/index.ts';
import type { AccountRecord } from '../store/records.ts';
import { findApplication } from './applications.ts';

/** The best passages of an application's sources, as searches see them: search and conversations share it. */
export function searchApplication(
  deps: { store: Store; retriever: Retriever },
  input: {
    applicationId: string;
    query: string;
    context?: string | undefined;
    limit: number;
    signal: AbortSignal;
  },
): Promise<Passage[]> {
  return deps.retriever.search({ ...input, liveSources: (ids) => deps.store.sources.live(ids) });
}

export type SearchService = ReturnType<typeof createSearchService>;

/** Retrieval alone, ranked exactly as a conversation ranks its context. */
export function createSearchService(deps: { store: Store; retriever: Retriever }) {
  return {
    async search(
      account: AccountRecord,
      applicationId: string,
      body: SearchBody,
      signal: AbortSignal,
    ): Promise<SearchResult[]> {
      const application = await findApplication(deps.store, account, applicationId);
      const passages = await searchApplication(deps, {
        applicationId: application.id,
        query: body.query,
        limit: body.limit,
        signal,
      });
      return passages.map((passage) => ({
        source: passage.sourceName,
        source_id: passage.sourceId,
        page: passage.page,
        score: passage.score,
        text: passage.text,
        ...(passage.url ? { url: passage.url } : {}),
      }));
    },
  };
}
