/**
 * How likely each passage is to hold the sentence that answers a question, by the responder's sentence model:
 * the share of one softmax over all the passages' sentences that falls on each passage's. The reranker weighs it
 * for its best few passages (retrieve/rerank.ts): a passage whose words match is not always one that answers.
 */
import { rankSentences } from './extract.ts';
import { readQuestion } from './question.ts';
import { softmaxShares } from './sentence-model.ts';
import type { ContextPassage } from './types.ts';

/**
 * Each hit's share, in the hits' order; all 0 when the question has no words to match. A hit's source tells
 * whether it is about a name the question uses (sentence-features.ts `aboutNamed`).
 */
export function answerShares(
  message: string,
  context: string | undefined,
  hits: readonly { text: string; sourceId: string }[],
): number[] {
  // Side by side, all first: the model reads a passage's rank, which is what the shares are to help decide.
  const passages: ContextPassage[] = hits.map(({ text, sourceId }) => ({
    sourceId,
    sourceName: '',
    page: 1,
    text,
    score: 1,
    number: 1,
  }));
  const findings = rankSentences(readQuestion(message, context), passages);
  const positions = new Map(passages.map((passage, position) => [passage, position]));
  const shares = hits.map(() => 0);
  softmaxShares(findings.map((finding) => finding.score)).forEach((share, index) => {
    shares[positions.get(findings[index]!.candidate.passage)!]! += share;
  });
  return shares;
}
