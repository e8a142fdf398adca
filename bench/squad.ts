/**
 * The shared SQuAD half as the responder benchmark and the sentence-model trainer read it: questions, the
 * article split they share, an index built by ckb's own pipeline, and the dataset's answer matching.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { connect } from '@lancedb/lancedb';
import { createEmbedder } from '../daemon/embed/index.ts';
import { chunkContextText, chunkDocument } from '../daemon/ingest/chunk.ts';
import type { ContextPassage } from '../daemon/respond/types.ts';
import { createRetriever, type Retriever } from '../daemon/retrieve/index.ts';
import { type ChunkRecord, openChunkIndex } from '../daemon/store/chunk-index.ts';
import { requireCorpus } from '../test/support/corpus.ts';
import { allLive, benchIndexOptions, benchRecords } from './support.ts';

export interface SquadQuestion {
  id: string;
  question: string;
  answers: string[];
  doc: string;
  paragraph: number;
}

export function squadDirectory(): string {
  return resolve(requireCorpus(), 'qa/squad-v1.1-dev');
}

export function squadQuestions(): SquadQuestion[] {
  return readJsonLines<SquadQuestion>(resolve(squadDirectory(), 'questions.jsonl'));
}

/**
 * Training and held-out articles: the shared half's articles in name order, every other one held out. Whatever
 * is fitted on SQuAD (the sentence model, the reranker's weights) sees only the training articles; figures on
 * the held-out ones are figures on data it was not fitted to. Whole articles, never questions, are split, so a
 * held-out question's paragraph was never seen either.
 */
export function isHeldOutArticle(doc: string): boolean {
  const articles = readdirSync(resolve(squadDirectory(), 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort();
  return articles.indexOf(doc) % 2 === 1;
}

export interface SquadIndex {
  embedderId: string;
  /** One source per article, named by its file. */
  sourceIds: string[];
  search(query: string, sourceIds: string[], limit: number): Promise<ContextPassage[]>;
  dispose(): Promise<void>;
}

/** Ingests every article as the daemon would a Markdown source, in a temporary LanceDB, and searches it as a conversation does. */
export async function buildSquadIndex(): Promise<SquadIndex> {
  const directory = resolve(squadDirectory(), 'docs');
  const home = mkdtempSync(join(tmpdir(), 'ckb-bench-squad-'));
  const connection = await connect(home);
  const embedder = await createEmbedder({ cacheDir: join(home, 'cache') });
  const chunkIndex = await openChunkIndex(connection, embedder, benchIndexOptions(home));
  const files = readdirSync(directory)
    .filter((name) => name.endsWith('.md'))
    .sort();
  const records: ChunkRecord[] = files.flatMap((file) =>
    benchRecords(
      chunkDocument({ pages: [{ page: 1, text: readFileSync(join(directory, file), 'utf8') }] }),
      file,
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
    search: async (query, sourceIds, limit) => {
      const passages = await retriever.search({
        query,
        applicationId: 'bench',
        liveSources: allLive((id) => sourceIds.includes(id)),
        limit,
      });
      return passages.map((passage, position) => ({
        ...passage,
        number: position + 1,
        sourceName: basename(passage.sourceId),
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
export function containsAnswer(text: string, answer: string): boolean {
  const gold = normaliseAnswer(separateWidePunctuation(answer));
  return gold.length > 0 && ` ${normaliseAnswer(separateWidePunctuation(text))} `.includes(` ${gold} `);
}

/**
 * The official normalisation drops only ASCII punctuation: it compares answer spans, in which a dash or a curly
 * quote seldom sits. Looking for a span in a reply, "Zhu Shijie (1249–1314)" holds "1249" and "Dyrrachium—one of
 * the most important naval bases" holds "Dyrrachium", so punctuation outside ASCII parts words here.
 */
function separateWidePunctuation(text: string): string {
  return text.replace(/(?![\0-\x7f])[\p{P}\p{S}]/gu, ' ');
}

/** The official SQuAD v1.1 normalisation: lower case, no punctuation, no articles, single spaces. */
export function normaliseAnswer(text: string): string {
  return text
    .toLowerCase()
    .replace(/[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g, '')
    .replace(/\b(a|an|the)\b/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .join(' ');
}

export function readJsonLines<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as T);
}
