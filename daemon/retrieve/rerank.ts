import type { ChunkHit } from '../store/chunk-index.ts';
import { sentences } from '../text/sentences.ts';
import { contentTerms } from '../text/words.ts';

/** How much each signal counts; the score is their weighted mean, so it stays in [0, 1]. */
export interface RerankWeights {
  /** The fused full-text and vector score. */
  fused: number;
  /** Share of the query's weighted terms the passage (with its headings) holds. */
  coverage: number;
  /** The same share within the passage's best single sentence. */
  sentenceCoverage: number;
  /** Query terms that follow each other in the query and in that sentence (a phrase kept), up to 3. */
  phrases: number;
  /** Share of the query's weighted terms in the passage's heading path. */
  headings: number;
}

/**
 * Fitted by `node bench/retrieval.ts --fit-rerank` on the training questions only (SQuAD: every other article of
 * the shared half; SciFact: its train claims), and measured on the others.
 */
export const DEFAULT_RERANK: RerankWeights = {
  fused: 1,
  coverage: 0.1,
  sentenceCoverage: 0.75,
  phrases: 0.15,
  headings: 0.35,
};

const MAX_PHRASES = 3;

interface PassageTerms {
  all: Set<string>;
  headings: Set<string>;
  sentences: { terms: string[]; set: Set<string> }[];
}

/** What the reranker weighs for one hit, each in [0, 1]; named as in `RerankWeights`. */
export type RerankSignals = RerankWeights;

/**
 * Reorders fused hits by what decides rank 1 and BM25 alone misses: whether one sentence holds the query's
 * terms together (a question is usually asked of one sentence), phrases kept in order, and the headings. Terms
 * are weighted by how rare they are among these candidates, so the words that tell them apart count most.
 */
export function rerank(query: string, hits: ChunkHit[], weights: RerankWeights = DEFAULT_RERANK): ChunkHit[] {
  const head = hits.slice(0, RERANK_DEPTH);
  const signals = rerankSignals(query, head);
  if (!signals) return hits;
  const reranked = head
    .map((hit, position) => ({ ...hit, score: combine(signals[position]!, weights) }))
    .sort((left, right) => right.score - left.score);
  // Below the reranked head, in fused order, and never above it.
  const floor = Math.min(...reranked.map((hit) => hit.score));
  return [
    ...reranked,
    ...hits.slice(RERANK_DEPTH).map((hit) => ({ ...hit, score: Math.min(hit.score, floor) })),
  ];
}

/**
 * Only the best fused hits are reranked: past about 50, reranking changed no figure of the QA sets (SQuAD hit@1
 * 0.853 at 50 and at 100 candidates) and cost twice the time (10 ms a query for 100 passages of 512 tokens).
 */
const RERANK_DEPTH = 50;

/** The weighted mean of the signals. */
export function combine(signals: RerankSignals, weights: RerankWeights): number {
  let score = 0;
  let total = 0;
  for (const name of SIGNAL_NAMES) {
    score += weights[name] * signals[name];
    total += weights[name];
  }
  return total > 0 ? score / total : 0;
}

const SIGNAL_NAMES = ['fused', 'coverage', 'sentenceCoverage', 'phrases', 'headings'] as const;

/** Each hit's signals, in the hits' order; undefined when the query has no content words to weigh. */
export function rerankSignals(query: string, hits: ChunkHit[]): RerankSignals[] | undefined {
  const querySequence = contentTerms(query);
  const queryTerms = [...new Set(querySequence)];
  if (hits.length === 0 || queryTerms.length === 0) return undefined;
  const queryPairs = new Set<string>();
  for (let index = 1; index < querySequence.length; index++) {
    queryPairs.add(`${querySequence[index - 1]} ${querySequence[index]}`);
  }
  const passages = hits.map(passageTerms);
  const weight = rarity(queryTerms, passages);
  const total = queryTerms.reduce((sum, term) => sum + weight(term), 0);
  const share = (set: Set<string>) =>
    queryTerms.reduce((sum, term) => sum + (set.has(term) ? weight(term) : 0), 0) / total;
  return hits.map((hit, position) => {
    const passage = passages[position]!;
    const best = bestSentence(passage, share, queryPairs);
    return {
      fused: hit.score,
      coverage: share(passage.all),
      sentenceCoverage: best.coverage,
      phrases: best.phrases / MAX_PHRASES,
      headings: share(passage.headings),
    };
  });
}

function passageTerms(hit: ChunkHit): PassageTerms {
  const headings = new Set(contentTerms(hit.headings.join('\n')));
  const split = sentences(hit.text).map((sentence) => {
    const terms = contentTerms(sentence);
    return { terms, set: new Set(terms) };
  });
  const all = new Set(headings);
  for (const sentence of split) for (const term of sentence.terms) all.add(term);
  return { all, headings, sentences: split };
}

/** An inverse document frequency over the candidates themselves. */
function rarity(terms: string[], passages: PassageTerms[]): (term: string) => number {
  const weights = new Map<string, number>();
  for (const term of terms) {
    const frequency = passages.filter((passage) => passage.all.has(term)).length;
    weights.set(term, Math.log(1 + (passages.length + 1) / (frequency + 0.5)));
  }
  return (term) => weights.get(term) ?? 0;
}

/** The sentence holding the most of the query, phrases breaking ties, and what it holds. */
function bestSentence(
  passage: PassageTerms,
  share: (set: Set<string>) => number,
  queryPairs: Set<string>,
): { coverage: number; phrases: number } {
  let best = { coverage: 0, phrases: 0 };
  for (const sentence of passage.sentences) {
    const coverage = share(sentence.set);
    if (coverage < best.coverage) continue;
    let phrases = 0;
    for (let index = 1; index < sentence.terms.length && phrases < MAX_PHRASES; index++) {
      if (queryPairs.has(`${sentence.terms[index - 1]} ${sentence.terms[index]}`)) phrases++;
    }
    if (coverage > best.coverage || phrases > best.phrases) best = { coverage, phrases };
  }
  return best;
}
