import type { Embedder } from '../ingest/embed/embedder.ts';
import type { ChunkIndex } from '../store/chunk-index.ts';
import { contentTerms, isStopWord, words } from '../text/words.ts';
import { DEFAULT_FUSION, type FusedHit, type FusionOptions, fuse } from './fusion.ts';

export { DEFAULT_FUSION, type FusionOptions, fuse } from './fusion.ts';

export interface RetrievedPassage {
  sourceId: string;
  page: number;
  text: string;
  url?: string;
  /** In [0, 1], higher is more relevant. */
  score: number;
}

export interface SearchInput {
  query: string;
  sourceIds: string[];
  limit: number;
  signal?: AbortSignal;
}

export interface Retriever {
  search(input: SearchInput): Promise<RetrievedPassage[]>;
}

export interface RetrieverOptions {
  fusion?: FusionOptions;
  /** Candidates taken from each of full-text and vector search before fusion. */
  candidates?: number;
}

/** Chunks sharing at least this share of their words are one passage shown twice (a re-upload, an overlap). */
const DUPLICATE_SIMILARITY = 0.9;

/** Hybrid retrieval: LanceDB full-text and vector search over the given sources, fused and deduplicated. */
export function createRetriever(
  deps: { chunkIndex: ChunkIndex; embedder: Embedder },
  options: RetrieverOptions = {},
): Retriever {
  const fusion = options.fusion ?? DEFAULT_FUSION;
  return {
    search: async ({ query, sourceIds, limit, signal }) => {
      if (sourceIds.length === 0 || limit <= 0 || query.trim() === '') return [];
      const candidates = Math.max(options.candidates ?? 50, limit * 2);
      const filter = { sourceIds };
      const [textHits, vectorHits] = await Promise.all([
        fusion.textWeight > 0 ? deps.chunkIndex.fullTextSearch(query, filter, candidates) : [],
        fusion.textWeight < 1 ? searchByVector(deps, query, filter, candidates, signal) : [],
      ]);
      signal?.throwIfAborted();
      return collapseDuplicates(fuse(textHits, vectorHits, fusion), limit).map(toPassage);
    },
  };
}

async function searchByVector(
  deps: { chunkIndex: ChunkIndex; embedder: Embedder },
  query: string,
  filter: { sourceIds: string[] },
  limit: number,
  signal: AbortSignal | undefined,
) {
  const [vector] = await deps.embedder.embed([query], signal ? { kind: 'query', signal } : { kind: 'query' });
  return deps.chunkIndex.vectorSearch(vector!, filter, limit);
}

/** The best `limit` hits that are not near-copies of a better one; the rest are never compared. */
function collapseDuplicates(hits: FusedHit[], limit: number): FusedHit[] {
  const kept: { hit: FusedHit; terms: Set<string> }[] = [];
  for (const hit of hits) {
    if (kept.length === limit) break;
    const terms = new Set(contentTerms(hit.text));
    if (kept.some((other) => similarity(terms, other.terms) >= DUPLICATE_SIMILARITY)) continue;
    kept.push({ hit, terms });
  }
  return kept.map(({ hit }) => hit);
}

function similarity(left: Set<string>, right: Set<string>): number {
  if (left.size === 0 || right.size === 0) return 0;
  let shared = 0;
  for (const term of left) if (right.has(term)) shared++;
  return shared / Math.min(left.size, right.size);
}

function toPassage(hit: FusedHit): RetrievedPassage {
  const passage: RetrievedPassage = {
    sourceId: hit.sourceId,
    page: hit.page,
    text: hit.text,
    score: hit.score,
  };
  if (hit.url !== undefined) passage.url = hit.url;
  return passage;
}

const FOLLOW_UP_OPENING = /^(and|but|also|so|then|what about|how about|why|how come|or)\b/i;
/** Pronouns that point back; demonstratives ("the team that won") are too common in standalone questions. */
const REFERRING_WORDS = new Set([
  'it',
  'its',
  'they',
  'them',
  'their',
  'theirs',
  'he',
  'him',
  'his',
  'she',
  'her',
  'hers',
]);
/** A message with fewer content words than this does not name its own topic ("why?", "the second one?"). */
const SELF_CONTAINED_TERMS = 2;

/**
 * Forms the retrieval query of a follow-up question from the conversation so far: a message that refers back
 * ("and who funded it?") is searched together with the user's earlier question, which names the topic.
 */
export function retrievalQuery(
  history: { role: 'user' | 'assistant'; content: string }[],
  message: string,
): string {
  const earlier = history.filter((turn) => turn.role === 'user');
  const previous = earlier.at(-1);
  if (!previous || !isFollowUp(message)) return message;
  const context = retrievalQuery(history.slice(0, history.lastIndexOf(previous)), previous.content);
  return `${context} ${message}`;
}

function isFollowUp(message: string): boolean {
  const messageWords = words(message);
  if (FOLLOW_UP_OPENING.test(message.trim())) return true;
  if (messageWords.some((word) => REFERRING_WORDS.has(word))) return true;
  return messageWords.filter((word) => !isStopWord(word)).length < SELF_CONTAINED_TERMS;
}
