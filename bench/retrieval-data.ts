import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One ranked result of any system under test: the document it came from and the passage text. */
export interface RankedPassage {
  documentId: string;
  text: string;
}

export interface Question {
  id: string;
  text: string;
  /** SQuAD: gold answer strings. */
  answers: string[];
  /** SciFact: gold document ids; SQuAD: the one gold document. */
  goldDocuments: string[];
  /** SciFact's `dev` split, the BEIR test set nDCG@10 is reported on. */
  isDev: boolean;
}

export interface QaSet {
  name: 'squad' | 'scifact';
  documents: Map<string, string>;
  questions: Question[];
}

export function loadQaSet(corpusDirectory: string, name: QaSet['name'], questionStride = 1): QaSet {
  const directory = join(corpusDirectory, 'qa', name === 'squad' ? 'squad-v1.1-dev' : 'scifact');
  const documents = new Map<string, string>();
  for (const file of readdirSync(join(directory, 'docs')).sort()) {
    documents.set(file, readFileSync(join(directory, 'docs', file), 'utf8'));
  }
  const lines = readFileSync(join(directory, 'questions.jsonl'), 'utf8').split('\n').filter(Boolean);
  // A fixed stride over questions in file order samples every article evenly and is the same on every run.
  const questions = lines
    .filter((_, position) => position % questionStride === 0)
    .map((line) => {
      const row = JSON.parse(line) as Record<string, unknown>;
      return {
        id: String(row['id']),
        text: String(row['question']),
        answers: (row['answers'] as string[] | undefined) ?? [],
        goldDocuments: (row['gold_docs'] as string[] | undefined) ?? [String(row['doc'])],
        isDev: row['split'] === 'dev',
      };
    });
  return { name, documents, questions };
}

const normalizeSpace = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();

/** The README's rules: SQuAD by gold answer in the chunk (plain variant), SciFact by gold document. */
export function isHit(set: QaSet, question: Question, passage: RankedPassage): boolean {
  if (set.name === 'scifact') return question.goldDocuments.includes(passage.documentId);
  const text = normalizeSpace(passage.text);
  return question.answers.some((answer) => text.includes(normalizeSpace(answer)));
}

export interface Scores {
  questions: number;
  'hit@1': number;
  'hit@3': number;
  'hit@5': number;
  'hit@10': number;
  mrr: number;
  'ndcg@10'?: number;
}

export function score(set: QaSet, rankings: RankedPassage[][]): Scores {
  const hits = { 1: 0, 3: 0, 5: 0, 10: 0 };
  let reciprocalRanks = 0;
  let ndcg = 0;
  let devQuestions = 0;
  set.questions.forEach((question, position) => {
    const ranking = rankings[position]!;
    const first = ranking.slice(0, 10).findIndex((passage) => isHit(set, question, passage));
    for (const k of [1, 3, 5, 10] as const) if (first >= 0 && first < k) hits[k]++;
    if (first >= 0) reciprocalRanks += 1 / (first + 1);
    if (set.name === 'scifact' && question.isDev) {
      devQuestions++;
      ndcg += ndcgAt10(question.goldDocuments, ranking);
    }
  });
  const count = set.questions.length;
  const round = (value: number) => Math.round(value * 1000) / 1000;
  const scores: Scores = {
    questions: count,
    'hit@1': round(hits[1] / count),
    'hit@3': round(hits[3] / count),
    'hit@5': round(hits[5] / count),
    'hit@10': round(hits[10] / count),
    mrr: round(reciprocalRanks / count),
  };
  if (devQuestions > 0) scores['ndcg@10'] = round(ndcg / devQuestions);
  return scores;
}

/** Over distinct documents in rank order, each counted at its first chunk, as BEIR does. */
function ndcgAt10(gold: string[], ranking: RankedPassage[]): number {
  const documents = [...new Set(ranking.map((passage) => passage.documentId))].slice(0, 10);
  const gain = documents.reduce(
    (sum, document, rank) => sum + (gold.includes(document) ? 1 / Math.log2(rank + 2) : 0),
    0,
  );
  const ideal = gold.slice(0, 10).reduce((sum, _, rank) => sum + 1 / Math.log2(rank + 2), 0);
  return ideal === 0 ? 0 : gain / ideal;
}
