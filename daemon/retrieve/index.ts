import type { Embedder } from '../embed/embedder.ts';
import type { ChunkHit, ChunkIndex } from '../store/chunk-index.ts';
import { namesOwnTopic, withContext } from '../text/follow-up.ts';
import { withPlainVerbs } from '../text/plain-verbs.ts';
import { withOtherSpellings } from '../text/spelling.ts';
import { contentTerms, words } from '../text/words.ts';
import { DEFAULT_FUSION, type FusionOptions, fuse, meanScores } from './fusion.ts';
import { DEFAULT_RERANK, type RerankModel, rerank } from './rerank.ts';

export { followUpContext } from '../text/follow-up.ts';
export { DEFAULT_FUSION, type FusionOptions, fuse } from './fusion.ts';

/**
 * A chunk a search found, scored in [0, 1], with the name of its source, which the index does not hold: what a
 * search returns and a reply is given, carried as it is to the edge that shows it (a search result, a reply's
 * sources).
 */
export interface Passage extends ChunkHit {
  sourceName: string;
}

/** The sources a search may show, each with its name and the generation of its chunks that searches see. */
export type LiveSources = (sourceIds: string[]) => Promise<Map<string, { name: string; generation: number }>>;

export interface SearchInput {
  query: string;
  /** The earlier question(s) a follow-up query refers back to, which name its topic: searched with it. */
  context?: string | undefined;
  applicationId: string;
  limit: number;
  /** Chunks of sources deleted, replaced or not yet completed are in the index too, and are left out. */
  liveSources: LiveSources;
  signal?: AbortSignal;
}

export interface Retriever {
  search(input: SearchInput): Promise<Passage[]>;
}

export interface RetrieverOptions {
  fusion?: FusionOptions;
  /** Candidates taken from each of full-text and vector search before fusion. */
  candidates?: number;
  /** How fused candidates are reordered; `false` keeps the fused order (benchmarks compare the two). */
  rerank?: RerankModel | false;
}

/** Chunks sharing at least this share of their words are one passage shown twice (a re-upload, an overlap). */
const DUPLICATE_SIMILARITY = 0.9;
/**
 * A source replaced while a search read the index may show neither version: the old chunks are no longer live and
 * the new ones were stored after the read. The search runs again, up to this many times, so it shows the new one.
 */
const SEARCHES_AFTER_A_REPLACEMENT = 2;
/** When hidden chunks crowd the candidates out, the search runs once more with this many times as many. */
const WIDER_SEARCH = 4;

/** Hybrid retrieval: LanceDB full-text and vector search in one application, fused, reranked and deduplicated. */
export function createRetriever(
  deps: { chunkIndex: ChunkIndex; embedder: Embedder },
  options: RetrieverOptions = {},
): Retriever {
  const fusion = options.fusion ?? DEFAULT_FUSION;
  const model = options.rerank ?? DEFAULT_RERANK;

  async function candidatesOf(input: SearchInput, text: string, candidates: number) {
    const [textHits, vectorHits] = await Promise.all([
      fusion.textWeight > 0
        ? deps.chunkIndex.fullTextSearch(
            withOtherSpellings(text, words(text)),
            input.applicationId,
            candidates,
          )
        : [],
      fusion.textWeight < 1 ? searchByVector(deps, input, text, candidates) : [],
    ]);
    input.signal?.throwIfAborted();
    const live = await input.liveSources([
      ...new Set([...textHits, ...vectorHits].map((hit) => hit.sourceId)),
    ]);
    const visible = (hit: ChunkHit) => live.get(hit.sourceId)?.generation === hit.generation;
    const full = textHits.length === candidates || vectorHits.length === candidates;
    // A source found only in chunks older than its live generation was replaced while the index was read: its
    // new chunks may have been stored too late to be found. Searching again finds them.
    const all = [...textHits, ...vectorHits];
    const shown = new Set(all.filter(visible).map((hit) => hit.sourceId));
    const replacedMeanwhile = all.some(
      (hit) =>
        !shown.has(hit.sourceId) &&
        hit.generation < (live.get(hit.sourceId)?.generation ?? Number.NEGATIVE_INFINITY),
    );
    return {
      replacedMeanwhile,
      textHits: textHits.filter(visible),
      vectorHits: vectorHits.filter(visible),
      hidden:
        textHits.length +
        vectorHits.length -
        textHits.filter(visible).length -
        vectorHits.filter(visible).length,
      full,
      names: live,
    };
  }

  /** The live hits of full-text and vector search for one text, fused. */
  async function fusedCandidates(input: SearchInput, text: string) {
    const candidates = Math.max(options.candidates ?? 50, input.limit * 2);
    let found = await candidatesOf(input, text, candidates);
    for (let again = 0; found.replacedMeanwhile && again < SEARCHES_AFTER_A_REPLACEMENT; again++)
      found = await candidatesOf(input, text, candidates);
    if (found.hidden > 0 && found.full && found.textHits.length < input.limit)
      found = await candidatesOf(input, text, candidates * WIDER_SEARCH);
    return { hits: fuse(found.textHits, found.vectorHits, fusion), names: found.names };
  }

  return {
    search: async (input) => {
      if (input.limit <= 0 || input.query.trim() === '') return [];
      const query = withPlainVerbs(input.query);
      // A follow-up is searched with the question it refers to, which names the topic. One that names its own
      // topic ("and how often are the usage reports provided?") is searched on its own too: the earlier question's
      // words may crowd what it asks out of the first search.
      const texts =
        input.context === undefined
          ? [query]
          : namesOwnTopic(query)
            ? [withContext(query, input.context), query]
            : [withContext(query, input.context)];
      const found = await Promise.all(texts.map((text) => fusedCandidates(input, text)));
      const fused = meanScores(found.map(({ hits }) => hits));
      const ranked = model === false ? fused : rerank(query, fused, model, input.context);
      // The searches read the sources' generations apart: the newest each saw is the one shown.
      const names = new Map<string, { name: string; generation: number }>();
      for (const [sourceId, live] of found.flatMap(({ names }) => [...names])) {
        if ((names.get(sourceId)?.generation ?? Number.NEGATIVE_INFINITY) < live.generation)
          names.set(sourceId, live);
      }
      return collapseDuplicates(ranked, input.limit).map((hit) => ({
        ...hit,
        sourceName: names.get(hit.sourceId)?.name ?? hit.sourceId,
      }));
    },
  };
}

async function searchByVector(
  deps: { chunkIndex: ChunkIndex; embedder: Embedder },
  input: SearchInput,
  text: string,
  limit: number,
) {
  const { signal } = input;
  const [vector] = await deps.embedder.embed([text], signal ? { kind: 'query', signal } : { kind: 'query' });
  return deps.chunkIndex.vectorSearch(vector!, input.applicationId, limit);
}

/** The best `limit` hits that are not near-copies of a better one; the rest are never compared. */
function collapseDuplicates(hits: ChunkHit[], limit: number): ChunkHit[] {
  const kept: { hit: ChunkHit; terms: Set<string> }[] = [];
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
