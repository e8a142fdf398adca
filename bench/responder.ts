/**
 * Offline responder on the shared half of SQuAD v1.1 dev: how often a reply contains a gold answer
 * (normalised as the dataset's README says) and how long replies are. Writes bench/results/responder.json.
 *
 *   node bench/responder.ts [--limit N]
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import MiniSearch from 'minisearch';
import { composeReply, notFoundReply } from '../daemon/respond/offline.ts';
import type { ContextPassage } from '../daemon/respond/types.ts';
import { wordCount } from '../daemon/respond/words.ts';
import { requireCorpus } from '../test/support/corpus.ts';

interface SquadQuestion {
  id: string;
  question: string;
  answers: string[];
  doc: string;
  paragraph: number;
}

interface Paragraph {
  id: number;
  doc: string;
  index: number;
  text: string;
}

export interface ResponderFigures {
  dataset: string;
  retriever: string;
  questions: number;
  passagesPerQuestion: number;
  /** Share of replies containing a gold answer (normalised substring): the target is ≥ 0.60. */
  goldAnswerContained: number;
  /** Share of questions whose passages contained a gold answer at all: the ceiling of the above. */
  retrievalHitAt5: number;
  /** Of the questions whose passages held an answer, the share answered with one. */
  goldContainedWhenRetrieved: number;
  /** Official SQuAD token F1 of the whole reply against the best gold answer, averaged (x100). */
  replyF1: number;
  medianReplyWords: number;
  meanReplyWords: number;
  /** Share of SQuAD questions answered "I could not find this in the sources." (lower is better). */
  notFoundOnAnswerable: number;
  /** Share of off-topic queries (SciFact claims against the SQuAD documents) answered not-found (higher is better). */
  notFoundOnOffTopic: number;
  offTopicQueries: number;
  meanReplyMilliseconds: number;
  wallSeconds: number;
}

const passagesPerQuestion = 5;

export async function run(options: { limit?: number } = {}): Promise<ResponderFigures> {
  const started = performance.now();
  const corpus = requireCorpus();
  const squad = resolve(corpus, 'qa/squad-v1.1-dev');
  const paragraphs = loadParagraphs(resolve(squad, 'docs'));
  const search = indexParagraphs(paragraphs);
  const questions = evenSample(
    readJsonLines<SquadQuestion>(resolve(squad, 'questions.jsonl')),
    options.limit,
  );

  let contained = 0;
  let retrieved = 0;
  let containedWhenRetrieved = 0;
  let f1Sum = 0;
  let notFound = 0;
  let replyMilliseconds = 0;
  const lengths: number[] = [];
  for (const item of questions) {
    const passages = retrieve(search, paragraphs, item.question);
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
  }

  const offTopic = evenSample(
    readJsonLines<{ question: string }>(resolve(corpus, 'qa/scifact/questions.jsonl')),
    Math.min(300, options.limit ?? 300),
  );
  const offTopicNotFound = offTopic.filter(
    (item) => composeReply(item.question, retrieve(search, paragraphs, item.question)).text === notFoundReply,
  ).length;

  const count = questions.length;
  const figures: ResponderFigures = {
    dataset: 'SQuAD v1.1 dev, shared half (corpus/qa/squad-v1.1-dev)',
    retriever:
      'stand-in: MiniSearch BM25 over the documents’ paragraphs, top 5, scores divided by the top score (daemon/retrieve is not in the tree yet)',
    questions: count,
    passagesPerQuestion,
    goldAnswerContained: round(contained / count),
    retrievalHitAt5: round(retrieved / count),
    goldContainedWhenRetrieved: round(containedWhenRetrieved / Math.max(1, retrieved)),
    replyF1: round((100 * f1Sum) / count, 1),
    medianReplyWords: median(lengths),
    meanReplyWords: round(lengths.reduce((sum, length) => sum + length, 0) / count, 1),
    notFoundOnAnswerable: round(notFound / count),
    notFoundOnOffTopic: round(offTopicNotFound / offTopic.length),
    offTopicQueries: offTopic.length,
    meanReplyMilliseconds: round(replyMilliseconds / count, 3),
    wallSeconds: round((performance.now() - started) / 1000, 1),
  };
  const results = resolve(import.meta.dirname, 'results');
  mkdirSync(results, { recursive: true });
  writeFileSync(resolve(results, 'responder.json'), `${JSON.stringify(figures, null, 2)}\n`);
  return figures;
}

function loadParagraphs(directory: string): Paragraph[] {
  const paragraphs: Paragraph[] = [];
  for (const doc of readdirSync(directory)
    .filter((name) => name.endsWith('.md'))
    .sort()) {
    const text = readFileSync(resolve(directory, doc), 'utf8');
    const body = text.slice(text.indexOf('\n\n') + 2).replace(/\n$/, '');
    body.split('\n\n').forEach((paragraph, index) => {
      paragraphs.push({ id: paragraphs.length, doc, index, text: paragraph });
    });
  }
  return paragraphs;
}

function indexParagraphs(paragraphs: Paragraph[]): MiniSearch<Paragraph> {
  const search = new MiniSearch<Paragraph>({ fields: ['text'], storeFields: [] });
  search.addAll(paragraphs);
  return search;
}

function retrieve(search: MiniSearch<Paragraph>, paragraphs: Paragraph[], query: string): ContextPassage[] {
  const hits = search.search(query).slice(0, passagesPerQuestion);
  const top = hits[0]?.score ?? 1;
  return hits.map((hit, position) => {
    const paragraph = paragraphs[hit.id as number] as Paragraph;
    return {
      number: position + 1,
      sourceName: paragraph.doc,
      sourceId: `src_${paragraph.doc}`,
      page: 1,
      text: paragraph.text,
      score: hit.score / top,
    };
  });
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
