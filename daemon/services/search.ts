import type { SearchBody, SearchResult } from '../../src/api/search.ts';
import type { RetrievedPassage, Retriever } from '../retrieve/index.ts';
import type { Store } from '../store/index.ts';
import type { AccountRecord } from '../store/records.ts';
import { findApplication } from './applications.ts';
import { completedSources } from './sources.ts';

export interface NamedPassage extends RetrievedPassage {
  sourceName: string;
}

/** The best passages of an application's COMPLETED sources, with their sources' names: search and conversations share it. */
export async function searchApplication(
  deps: { store: Store; retriever: Retriever },
  input: { applicationId: string; query: string; limit: number; signal: AbortSignal },
): Promise<NamedPassage[]> {
  const names = new Map(
    completedSources(deps.store, input.applicationId).map((source) => [source.id, source.name]),
  );
  const passages = await deps.retriever.search({
    query: input.query,
    sourceIds: [...names.keys()],
    limit: input.limit,
    signal: input.signal,
  });
  return passages.map((passage) => ({
    ...passage,
    sourceName: names.get(passage.sourceId) ?? passage.sourceId,
  }));
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
      const application = findApplication(deps.store, account, applicationId);
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
