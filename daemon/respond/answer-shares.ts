/**
 * How likely each passage is to hold the sentence that answers a question, by the responder's sentence model:
 * the share of one softmax over all the passages' sentences that falls on each passage's. The reranker weighs it
 * for its best few passages (retrieve/rerank.ts): a passage whose words match is not always one that answers.
 */
import { readQuestion } from './question.ts';
import { featureRows } from './sentence-features.ts';
import { sentenceScore } from './sentence-model.ts';
import { SENTENCE_WEIGHTS } from './sentence-weights.ts';
import type { ContextPassage } from './types.ts';

/** Each text's share, in the texts' order; all 0 when the question has no words to match. */
export function answerShares(
  message: string,
  context: string | undefined,
  texts: readonly string[],
): number[] {
  // Side by side, all first: the model reads a passage's rank, which is what the shares are to help decide.
  const passages: ContextPassage[] = texts.map((text) => ({
    sourceId: '',
    sourceName: '',
    page: 1,
    text,
    score: 1,
    number: 1,
  }));
  const shares = texts.map(() => 0);
  const rows = featureRows(readQuestion(message, context), passages);
  if (rows.length === 0) return shares;
  const scores = rows.map((row) => sentenceScore(SENTENCE_WEIGHTS, row.features));
  const best = Math.max(...scores);
  const weights = scores.map((score) => Math.exp(score - best));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const positions = new Map(passages.map((passage, position) => [passage, position]));
  rows.forEach((row, index) => {
    const position = positions.get(row.candidate.passage)!;
    shares[position]! += weights[index]! / total;
  });
  return shares;
}
