/**
 * The offline responder on the shared half of SQuAD v1.1 dev, fed by ckb's own pipeline (chunker,
 * offline embedder, LanceDB chunk index, hybrid retriever, 6 passages as a conversation uses): how
 * often a reply contains a gold answer (normalised as the dataset's README says), how long replies
 * are, and how often it honestly says it could not find an answer. Writes bench/results/responder.json.
 *
 *   node bench/responder.ts [--limit N]   (default 1,000 questions spread over every article; 5397 for all)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { composeReply, isNotFound } from '../daemon/respond/offline.ts';
import { wordCount } from '../daemon/text/words.ts';
import { requireCorpus } from '../test/support/corpus.ts';
import {
  buildSquadIndex,
  containsAnswer,
  isHeldOutArticle,
  normaliseAnswer,
  readJsonLines,
  squadQuestions,
} from './squad.ts';

export interface ResponderFigures {
  dataset: string;
  retriever: string;
  questions: number;
  passagesPerQuestion: number;
  /** Share of replies containing a gold answer (normalised substring), over all sampled questions. */
  goldAnswerContained: number;
  /**
   * The same on the held-out articles only (bench/squad.ts `isHeldOutArticle`), which the sentence model and the
   * reranker were not fitted on: the figure to trust. The target is >= 0.85.
   */
  heldOut: { questions: number; goldAnswerContained: number; medianReplyWords: number };
  trainingArticles: { questions: number; goldAnswerContained: number };
  /** Share of questions whose passages contained a gold answer at all: the ceiling of the above. */
  retrievalHit: number;
  /** Of the questions whose passages held an answer, the share answered with one. */
  goldContainedWhenRetrieved: number;
  /** Official SQuAD token F1 of the whole reply against the best gold answer, averaged (x100). */
  replyF1: number;
  medianReplyWords: number;
  meanReplyWords: number;
  /** Share of replies whose every `[n]` names one of the reply's sources (1 to its number of sources). */
  citationsValid: number;
  /** Share of SQuAD questions answered "I could not find this in the sources." (lower is better). */
  notFoundOnAnswerable: number;
  /** The same questions asked of every article but their own, so the answer is (nearly always) absent (higher is better). */
  notFoundWithoutGoldArticle: number;
  /** SciFact claims asked of the SQuAD articles: off-topic (higher is better). */
  notFoundOnOffTopic: number;
  offTopicQueries: number;
  meanReplyMilliseconds: number;
  wallSeconds: number;
}

const passagesPerQuestion = 6;
/** Each question costs two LanceDB searches; 1,000 of them keep a run near a minute and a half. */
const defaultQuestions = 1000;

interface Tally {
  questions: number;
  contained: number;
  lengths: number[];
}

export async function run(options: { limit?: number } = {}): Promise<ResponderFigures> {
  const started = performance.now();
  const corpus = requireCorpus();
  const index = await buildSquadIndex();
  try {
    const questions = evenSample(squadQuestions(), options.limit ?? defaultQuestions);
    const tallies = { heldOut: newTally(), training: newTally() };
    let retrieved = 0;
    let containedWhenRetrieved = 0;
    let f1Sum = 0;
    let notFound = 0;
    let notFoundElsewhere = 0;
    let validCitations = 0;
    let replyMilliseconds = 0;
    for (const item of questions) {
      const passages = await index.search(item.question, index.sourceIds, passagesPerQuestion);
      const replyStarted = performance.now();
      const reply = composeReply(item.question, passages);
      replyMilliseconds += performance.now() - replyStarted;
      const hit = item.answers.some((answer) =>
        passages.some((passage) => containsAnswer(passage.text, answer)),
      );
      // A reply that could not find the answer may quote the nearest sentence; it answered nothing.
      const answered =
        !isNotFound(reply.text) && item.answers.some((answer) => containsAnswer(reply.text, answer));
      const tally = isHeldOutArticle(item.doc) ? tallies.heldOut : tallies.training;
      tally.questions++;
      tally.lengths.push(wordCount(reply.text));
      if (answered) tally.contained++;
      if (hit) retrieved++;
      if (hit && answered) containedWhenRetrieved++;
      if (isNotFound(reply.text)) notFound++;
      if (citationsAreValid(reply.text, reply.usedPassages.length)) validCitations++;
      // A reply that could not find the answer scores nothing, whatever sentence it quotes as the nearest.
      if (!isNotFound(reply.text))
        f1Sum += Math.max(...item.answers.map((answer) => tokenF1(reply.text, answer)));
      const elsewhere = await index.search(
        item.question,
        index.sourceIds.filter((sourceId) => sourceId !== item.doc),
        passagesPerQuestion,
      );
      if (isNotFound(composeReply(item.question, elsewhere).text)) notFoundElsewhere++;
    }

    const offTopic = evenSample(
      readJsonLines<{ question: string }>(resolve(corpus, 'qa/scifact/questions.jsonl')),
      Math.min(300, options.limit ?? 300),
    );
    let offTopicNotFound = 0;
    for (const item of offTopic) {
      const passages = await index.search(item.question, index.sourceIds, passagesPerQuestion);
      if (isNotFound(composeReply(item.question, passages).text)) offTopicNotFound++;
    }

    const count = questions.length;
    const lengths = [...tallies.heldOut.lengths, ...tallies.training.lengths];
    const figures: ResponderFigures = {
      dataset: 'SQuAD v1.1 dev, shared half (corpus/qa/squad-v1.1-dev)',
      retriever: `ckb: chunkDocument defaults, ${index.embedderId} embedder, LanceDB chunk index, createRetriever hybrid search and rerank, top ${passagesPerQuestion}`,
      questions: count,
      passagesPerQuestion,
      goldAnswerContained: round((tallies.heldOut.contained + tallies.training.contained) / count),
      heldOut: {
        questions: tallies.heldOut.questions,
        goldAnswerContained: round(tallies.heldOut.contained / Math.max(1, tallies.heldOut.questions)),
        medianReplyWords: median(tallies.heldOut.lengths),
      },
      trainingArticles: {
        questions: tallies.training.questions,
        goldAnswerContained: round(tallies.training.contained / Math.max(1, tallies.training.questions)),
      },
      retrievalHit: round(retrieved / count),
      goldContainedWhenRetrieved: round(containedWhenRetrieved / Math.max(1, retrieved)),
      replyF1: round((100 * f1Sum) / count, 1),
      medianReplyWords: median(lengths),
      meanReplyWords: round(lengths.reduce((sum, length) => sum + length, 0) / count, 1),
      citationsValid: round(validCitations / count),
      notFoundOnAnswerable: round(notFound / count),
      notFoundWithoutGoldArticle: round(notFoundElsewhere / count),
      notFoundOnOffTopic: round(offTopicNotFound / offTopic.length),
      offTopicQueries: offTopic.length,
      meanReplyMilliseconds: round(replyMilliseconds / count, 3),
      wallSeconds: round((performance.now() - started) / 1000, 1),
    };
    const results = resolve(import.meta.dirname, 'results');
    mkdirSync(results, { recursive: true });
    writeFileSync(resolve(results, 'responder.json'), `${JSON.stringify(figures, null, 2)}\n`);
    return figures;
  } finally {
    await index.dispose();
  }
}

function newTally(): Tally {
  return { questions: 0, contained: 0, lengths: [] };
}

/** Every `[n]` (also `[1, 2]`) names one of `sources` sources. */
export function citationsAreValid(text: string, sources: number): boolean {
  for (const group of text.matchAll(/\[(\d+(?:\s*,\s*\d+)*)\]/g)) {
    for (const token of (group[1] ?? '').split(',')) {
      const number = Number(token.trim());
      if (!Number.isInteger(number) || number < 1 || number > sources) return false;
    }
  }
  return true;
}

function tokenF1(prediction: string, gold: string): number {
  const predicted = normaliseAnswer(prediction).split(' ').filter(Boolean);
  const expected = normaliseAnswer(gold).split(' ').filter(Boolean);
  const remaining = new Map<string, number>();
  for (const token of expected) remaining.set(token, (remaining.get(token) ?? 0) + 1);
  let same = 0;
  for (const token of predicted) {
    const left = remaining.get(token) ?? 0;
    if (left > 0) {
      same++;
      remaining.set(token, left - 1);
    }
  }
  if (same === 0) return 0;
  const precision = same / predicted.length;
  const recall = same / expected.length;
  return (2 * precision * recall) / (precision + recall);
}

/** Every k-th item, so a limited run still spans every article rather than the first one. */
function evenSample<T>(items: T[], limit: number | undefined): T[] {
  if (!limit || limit >= items.length) return items;
  const step = items.length / limit;
  return Array.from({ length: limit }, (_, index) => items[Math.floor(index * step)] as T);
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function round(value: number, digits = 3): number {
  return Number(value.toFixed(digits));
}

if (import.meta.main) {
  const limitFlag = process.argv.indexOf('--limit');
  const limit = limitFlag >= 0 ? Number(process.argv[limitFlag + 1]) : undefined;
  console.log(JSON.stringify(await run(limit ? { limit } : {}), null, 2));
}
