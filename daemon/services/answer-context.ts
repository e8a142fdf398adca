import type { ContextPassage } from '../respond/types.ts';
import type { Retriever } from '../retrieve/index.ts';
import type { Store } from '../store/index.ts';
import { searchApplication } from './search.ts';

/** How many passages a reply gives the model as context. */
export const CONTEXT_PASSAGES = 6;

/** The passages a reply is answered from, numbered from 1 as the reply cites them: conversations and chat completions share it. */
export async function retrieveContext(
  deps: { store: Store; retriever: Retriever },
  input: { applicationId: string; query: string; context: string | undefined; signal: AbortSignal },
): Promise<ContextPassage[]> {
  const passages = await searchApplication(deps, { ...input, limit: CONTEXT_PASSAGES });
  return passages.map((passage, index) => ({ ...passage, number: index + 1 }));
}
