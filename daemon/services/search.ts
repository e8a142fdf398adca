import type { SearchBody, SearchResult } from '../../src/api/search.ts';
import type { Retriever } from '../retrieve/index.ts';
import type { Store } from '../store/index.ts';
import type { AccountRecord } from '../store/records.ts';
import { findApplication } from './applications.ts';
import { completedSources } from './sources.ts';

export type SearchService = ReturnType<typeof createSearchService>;

/** Retrieval alone, ranked exactly as a conversation ranks its context. */
export function createSearchService(deps: { store: Store; retriever: Retriever }) {
  const { store, retriever } = deps;
  return {
    async search(
      account: AccountRecord,
      applicationId: string,
      body: SearchBody,
      signal: AbortSignal,
    ): Promise<SearchResult[]> {
      const application = findApplication(store, account, applicationId);
      const names = new Map(
        completedSources(store, application.id).map((source) => [source.id, source.name]),
      );
      const passages = await retriever.search({
        query: body.query,
        sourceIds: [...names.keys()],
        limit: body.limit,
        signal,
      });
      return passages.map((passage) => ({
        source: names.get(passage.sourceId) ?? passage.sourceId,
        source_id: passage.sourceId,
        page: passage.page,
        score: passage.score,
        text: passage.text,
        ...(passage.url ? { url: passage.url } : {}),
      }));
    },
  };
}
