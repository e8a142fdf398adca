import type { Embedder } from '../ingest/embed/embedder.ts';
import type { ChunkIndex } from '../store/chunk-index.ts';
import { contentTerms } from '../text/words.ts';
import { DEFAULT_FUSION, type FusedHit, type FusionOptions, fuse } from './fusion.ts';
import { DEFAULT_RERANK, type RerankWeights, rerank } from './rerank.ts';

export { retrievalQuery } from '../text/follow-up.ts';
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
  /** How fused candidates are reordered; `false` keeps the fused order (benchmarks compare the two). */
  rerank?: RerankWeights | false;
}

/** Chunks sharing at least this share of their words are one passage shown twice (a re-upload, an overlap). */
const DUPLICATE_SIMILARITY = 0.9;

/** Hybrid retrieval: LanceDB full-text and vector search over the given sources, fused, reranked and deduplicated. */
export function createRetriever(
  deps: { chunkIndex: ChunkIndex; embedder: Embedder },
  options: RetrieverOptions = {},
): Retriever {
  const fusion = options.fusion ?? DEFAULT_FUSION;
  const weights = options.rerank ?? DEFAULT_RERANK;
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
      const fused = fuse(textHits, vectorHits, fusion);
      const ranked = weights === false ? fused : rerank(query, fused, weights);
      return collapseDuplicates(ranked, limit).map(toPassage);
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
