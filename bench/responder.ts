/**
 * The offline responder on the shared half of SQuAD v1.1 dev, fed by ckb's own pipeline (chunker,
 * offline embedder, LanceDB chunk index, hybrid retriever, 6 passages as a conversation uses): how
 * often a reply contains a gold answer (normalised as the dataset's README says), how long replies
 * are, and how often it honestly says it could not find an answer. Writes bench/results/responder.json.
 *
 *   node bench/responder.ts [--limit N]   (default 1,000 questions spread over every article; 5397 for all)
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { connect } from '@lancedb/lancedb';
import { chunkContextText, chunkDocument } from '../daemon/ingest/chunk.ts';
import { createEmbedder } from '../daemon/ingest/embed/index.ts';
import { composeReply, notFoundReply } from '../daemon/respond/offline.ts';
import type { ContextPassage } from '../daemon/respond/types.ts';
import { createRetriever, type Retriever } from '../daemon/retrieve/index.ts';
import { type ChunkRecord, openChunkIndex } from '../daemon/store/chunk-index.ts';
import { wordCount } from '../daemon/text/words.ts';
import { requireCorpus } from '../test/support/corpus.ts';

interface SquadQuestion {
  id: string;
  question: string;
  answers: string[];
  doc: string;
  paragraph: number;
}

export interface ResponderFigures {
  dataset: string;
  retriever: string;
  questions: number;
  passagesPerQuestion: number;
  /** Share of replies containing a gold answer (normalised substring): the target is ≥ 0.60. */
  goldAnswerContained: number;
  /** Share of questions whose passages contained a gold answer at all: the ceiling of the above. */
  retrievalHit: number;
  /** Of the questions whose passages held an answer, the share answered with one. */
  goldContainedWhenRetrieved: number;
  /** Official SQuAD token F1 of the whole reply against the best gold answer, averaged (x100). */
  replyF1: number;
  medianReplyWords: number;
  meanReplyWords: number;
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

export async function run(options: { limit?: number } = {}): Promise<ResponderFigures> {
  const started = performance.now();
  const corpus = requireCorpus();
  const squad = resolve(corpus, 'qa/squad-v1.1-dev');
  const index = await buildIndex(resolve(squad, 'docs'));
  try {
    const questions = evenSample(
      readJsonLines<SquadQuestion>(resolve(squad, 'questions.jsonl')),
      options.limit ?? defaultQuestions,
    );
    let contained = 0;
    let retrieved = 0;
    let containedWhenRetrieved = 0;
    let f1Sum = 0;
    let notFound = 0;
    let notFoundElsewhere = 0;
    let replyMilliseconds = 0;
    const lengths: number[] = [];
    for (const item of questions) {
      const passages = await index.search(item.question, index.sourceIds);
      const replyStarted = performance.now();
      const reply = composeReply(item.question, passages).text;
      replyMilliseconds += performance.now() - replyStarted;
      const hit = item.answers.some((answer) =>
        passages.some((passage) => containsAnswer(passage.text, answer)),
      );
      const answered = item.answers.some((answer) => containsAnswer(reply, answer));
      if (hit) retrieved++;
      if (answered) contained++;
      if (hit && answered) containedWhenRetrieved++;
      if (reply === notFoundReply) notFound++;
      f1Sum += Math.max(...item.answers.map((answer) => tokenF1(reply, answer)));
      lengths.push(wordCount(reply));
      const elsewhere = await index.search(
        item.question,
        index.sourceIds.filter((sourceId) => sourceId !== item.doc),
      );
      if (composeReply(item.question, elsewhere).text === notFoundReply) notFoundElsewhere++;
    }

    const offTopic = evenSample(
      readJsonLines<{ question: string }>(resolve(corpus, 'qa/scifact/questions.jsonl')),
      Math.min(300, options.limit ?? 300),
    );
    let offTopicNotFound = 0;
    for (const item of offTopic) {
      const passages = await index.search(item.question, index.sourceIds);
      if (composeReply(item.question, passages).text === notFoundReply) offTopicNotFound++;
    }

    const count = questions.length;
    const figures: ResponderFigures = {
      dataset: 'SQuAD v1.1 dev, shared half (corpus/qa/squad-v1.1-dev)',
      retriever: `ckb: chunkDocument defaults, ${index.embedderId} embedder, LanceDB chunk index, createRetriever hybrid search, top ${passagesPerQuestion}`,
      questions: count,
      passagesPerQuestion,
      goldAnswerContained: round(contained / count),
      retrievalHit: round(retrieved / count),
      goldContainedWhenRetrieved: round(containedWhenRetrieved / Math.max(1, retrieved)),
      replyF1: round((100 * f1Sum) / count, 1),
      medianReplyWords: median(lengths),
      meanReplyWords: round(lengths.reduce((sum, length) => sum + length, 0) / count, 1),
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

interface BenchIndex {
  embedderId: string;
  /** One source per article, named by its file. */
  sourceIds: string[];
  search(query: string, sourceIds: string[]): Promise<ContextPassage[]>;
  dispose(): Promise<void>;
}

/** Ingests every article as the daemon would a Markdown source, in a temporary LanceDB. */
async function buildIndex(directory: string): Promise<BenchIndex> {
  const home = mkdtempSync(join(tmpdir(), 'ckb-bench-responder-'));
  const connection = await connect(home);
  const embedder = await createEmbedder({ cacheDir: join(home, 'cache') });
  const chunkIndex = await openChunkIndex(connection, embedder);
  const files = readdirSync(directory)
    .filter((name) => name.endsWith('.md'))
    .sort();
  const records: ChunkRecord[] = files.flatMap((file) =>
    chunkDocument({ pages: [{ page: 1, text: readFileSync(join(directory, file), 'utf8') }] }).map(
      (chunk) => ({
        ...chunk,
        sourceId: file,
        applicationId: 'bench',
        accountId: 'bench',
      }),
    ),
  );
  for (let start = 0; start < records.length; start += 2000) {
    const batch = records.slice(start, start + 2000);
    await chunkIndex.add(batch, await embedder.embed(batch.map(chunkContextText)));
  }
  await chunkIndex.maintain();
  const retriever: Retriever = createRetriever({ chunkIndex, embedder });
  return {
    embedderId: embedder.id,
    sourceIds: files,
    search: async (query, sourceIds) => {
      const passages = await retriever.search({ query, sourceIds, limit: passagesPerQuestion });
      return passages.map((passage, position) => ({
        number: position + 1,
        sourceName: basename(passage.sourceId),
        sourceId: passage.sourceId,
        page: passage.page,
        text: passage.text,
        score: passage.score,
      }));
    },
    dispose: async () => {
      await chunkIndex.close();
      connection.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** The README's lenient measure: the normalised gold answer occurs in the normalised text. */
function containsAnswer(text: string, answer: string): boolean {
  const gold = normalise(answer);
  return gold.length > 0 && ` ${normalise(text)} `.includes(` ${gold} `);
}

/** The official SQuAD v1.1 normalisation: lower case, no punctuation, no articles, single spaces. */
function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g, '')
    .replace(/\b(a|an|the)\b/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .join(' ');
}

function tokenF1(prediction: string, gold: string): number {
  const predicted = normalise(prediction).split(' ').filter(Boolean);
  const expected = normalise(gold).split(' ').filter(Boolean);
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

function readJsonLines<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as T);
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
