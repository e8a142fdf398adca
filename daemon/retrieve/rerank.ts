import { answerShares } from '../respond/answer-shares.ts';
import type { ChunkHit } from '../store/chunk-index.ts';
import { isQuestion } from './query-form.ts';
import { type RerankSignals, rerankSignals, SIGNAL_NAMES } from './rerank-signals.ts';

export { type RerankSignals, rerankSignals, SIGNAL_NAMES } from './rerank-signals.ts';

/** How much each signal counts; a weight may be negative (a statement's passage holding its words is no help). */
export type RerankWeights = RerankSignals;

/**
 * Questions and statements are weighed apart: for a question one sentence holding its words (and a year for
 * "when") decides, for a statement (a claim, keywords) the passage as a whole does.
 */
export interface RerankModel {
  questions: RerankWeights;
  statements: RerankWeights;
  /**
   * How much a question's best `ANSWER_DEPTH` passages move by their share of the sentence model's answer
   * (respond/answer-shares.ts), against the signals' score of 1: a score becomes (score + w × share) / (1 + w).
   * The share is the sentence model's output, so a retrained model (bench/train-responder.ts) wants it refitted.
   */
  answerShare: number;
}

/**
 * Fitted by `node bench/retrieval-fit-rerank.ts` (a softmax over each query's candidates, the likelihood of the
 * relevant ones maximised) on training queries only, over 768-token chunks: questions on the training articles of
 * SQuAD, statements on SciFact's train claims. On the held-out articles and dev claims: SQuAD hit@1 0.895 (0.888
 * without the answer share, fusion alone 0.824), SciFact nDCG@10 0.775 (0.756).
 *
 * A statement's weights lean on the passage as a whole: SciFact's passages are a title and an abstract, and the
 * fit favours one whose words come from both (coverage up, the best paragraph's share down) and that repeats them
 * (termFrequency). Without those two signals the dev claims measured 0.765.
 */
export const DEFAULT_RERANK: RerankModel = {
  questions: {
    fused: 5.59,
    coverage: 5.32,
    sentenceCoverage: -1.83,
    windowCoverage: 2.17,
    phrases: 3.29,
    headings: 8.18,
    proximity: 1.8,
    wording: 4.23,
    answerKind: 0.43,
    paraphrase: 9.57,
    sentenceMeaning: 7.44,
    paragraphCoverage: 2.01,
    termFrequency: -0.31,
  },
  statements: {
    fused: 6.55,
    coverage: 4,
    sentenceCoverage: -0.95,
    windowCoverage: 6.14,
    phrases: 2.34,
    headings: 2.61,
    proximity: 0.64,
    wording: -2.13,
    answerKind: 0,
    paraphrase: 4.91,
    sentenceMeaning: 7.03,
    paragraphCoverage: -10.7,
    termFrequency: 3.62,
  },
  answerShare: 0.069,
};

/**
 * Only the best fused hits are reranked: past about 50, reranking changed no figure of the QA sets (SQuAD hit@1
 * 0.853 at 50 and at 100 candidates) and cost twice the time (10 ms a query for 100 passages of 512 tokens).
 */
const RERANK_DEPTH = 50;
/**
 * A question's best passages by the signals are weighed again by the responder's sentence model, which reads
 * whether a sentence says what is asked (a name for "who", its words near the question's), so that search and the
 * offline reply agree on what answers. It costs about 0.35 ms a passage once read (0.5 the first time), so only
 * the first 5. It lifted SQuAD held-out hit@1 from 0.888 to 0.895, and the training questions' from 0.894 to
 * 0.903; looking again at the first 10 (0.894) or 20 did no better.
 */
export const ANSWER_DEPTH = 5;
/** The weights for a query of this form (a follow-up's own message decides it, not the question it follows). */
export function weightsFor(query: string, model: RerankModel): RerankWeights {
  return isQuestion(query) ? model.questions : model.statements;
}

/**
 * Reorders fused hits by what decides rank 1 and BM25 alone misses (rerank-signals.ts). A follow-up's `context` is
 * the earlier question it refers back to.
 */
export function rerank(
  query: string,
  hits: ChunkHit[],
  model: RerankModel = DEFAULT_RERANK,
  context?: string,
): ChunkHit[] {
  const head = hits.slice(0, RERANK_DEPTH);
  const signals = rerankSignals(query, head, context);
  if (!signals) return hits;
  const weights = weightsFor(query, model);
  const reranked = head
    .map((hit, position) => ({ ...hit, score: combine(signals[position]!, weights) }))
    .sort(byScore);
  const ordered =
    isQuestion(query) && model.answerShare > 0
      ? byAnswer(query, context, reranked, model.answerShare)
      : reranked;
  return [...ordered, ...below(ordered, hits.slice(RERANK_DEPTH))];
}

/**
 * The first `ANSWER_DEPTH` hits ordered again with their answer shares weighed in; the rest scored as if their
 * share were 0, which keeps them below the first (a first hit scored h ≥ r scores at least r / (1 + w)), apart.
 */
function byAnswer(
  query: string,
  context: string | undefined,
  ranked: ChunkHit[],
  weight: number,
): ChunkHit[] {
  const head = ranked.slice(0, ANSWER_DEPTH);
  const shares = answerShares(query, context, head);
  const rescored = head
    .map((hit, position) => ({ ...hit, score: (hit.score + weight * shares[position]!) / (1 + weight) }))
    .sort(byScore);
  const rest = ranked.slice(ANSWER_DEPTH).map((hit) => ({ ...hit, score: hit.score / (1 + weight) }));
  return [...rescored, ...rest];
}

const byScore = (left: ChunkHit, right: ChunkHit) => right.score - left.score;

/** Hits in their own order under a reordered head, and never scored above it. */
function below(head: ChunkHit[], rest: ChunkHit[]): ChunkHit[] {
  const floor = Math.min(...head.map((hit) => hit.score));
  return rest.map((hit) => ({ ...hit, score: Math.min(hit.score, floor) }));
}

/**
 * The weighted sum of the signals, mapped onto [0, 1] by the least and most it can be: with weights all positive,
 * their weighted mean, as scores were before the weights were fitted (search results show them, and the offline
 * responder drops passages scored under its floor).
 */
export function combine(signals: RerankSignals, weights: RerankWeights): number {
  let sum = 0;
  let least = 0;
  let most = 0;
  for (const name of SIGNAL_NAMES) {
    const weight = weights[name];
    sum += weight * signals[name];
    if (weight < 0) least += weight;
    else most += weight;
  }
  return most > least ? (sum - least) / (most - least) : 0;
}
