import type { ContextPassage } from '../respond/types.ts';
import type { Passage, Retriever } from '../retrieve/index.ts';
import type { Store } from '../store/index.ts';
import { dateExtentAsked } from '../text/answer-kind.ts';
import { datesIn, furthestDated } from '../text/dates.ts';
import { searchApplication } from './search.ts';

/** How many passages a search gives a reply as context (one more for a question about how far dates reach). */
export const CONTEXT_PASSAGES = 6;

/** The passages a reply is answered from, numbered from 1 as the reply cites them: conversations and chat completions share it. */
export async function retrieveContext(
  deps: { store: Store; retriever: Retriever },
  input: { applicationId: string; query: string; context: string | undefined; signal: AbortSignal },
): Promise<ContextPassage[]> {
  const passages = await searchApplication(deps, { ...input, limit: CONTEXT_PASSAGES });
  const furthest = await furthestDatedChunk(deps.store, input.query, passages, input.signal);
  return [...passages, ...(furthest ? [furthest] : [])].map((passage, index) => ({
    ...passage,
    number: index + 1,
  }));
}

/**
 * For a question about where a document's dates begin or end ("how far back do its records go?"), the chunk of
 * the first source naming its oldest (or newest) date, unless a passage found names that date already: no words
 * of the question lead to it (a change log's first release is at the end of 155 KB). It counts as relevant as the
 * source.
 */
async function furthestDatedChunk(
  store: Store,
  query: string,
  passages: Passage[],
  signal: AbortSignal,
): Promise<Passage | undefined> {
  const extent = dateExtentAsked(query);
  const first = passages[0];
  if (!extent || !first) return undefined;
  const chunks = await store.chunks.list(first.sourceId, first.generation);
  signal.throwIfAborted();
  const furthest = furthestDated(chunks, (chunk) => chunk.text, extent);
  if (!furthest) return undefined;
  const namesIt = (passage: Passage) =>
    passage.sourceId === first.sourceId && datesIn(passage.text, furthest.order).includes(furthest.date);
  if (passages.some(namesIt)) return undefined;
  const { index, ...chunk } = furthest.item;
  const { sourceId, sourceName, generation, score } = first;
  return { sourceId, sourceName, generation, score, chunkIndex: index, ...chunk };
}
