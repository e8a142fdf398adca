import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { connect } from '@lancedb/lancedb';
import type { Embedder } from '../daemon/embed/embedder.ts';
import { createHashedEmbedder } from '../daemon/embed/hashed.ts';
import {
  chunkContextText,
  chunkDocument,
  DEFAULT_OVERLAP_TOKENS,
  DEFAULT_TARGET_TOKENS,
} from '../daemon/ingest/chunk.ts';
import { DEFAULT_FUSION, type FusionOptions, fuse } from '../daemon/retrieve/fusion.ts';
import { createRetriever } from '../daemon/retrieve/index.ts';
import { DEFAULT_RERANK, rerank } from '../daemon/retrieve/rerank.ts';
import { type ChunkIndex, type ChunkRecord, openChunkIndex } from '../daemon/store/chunk-index.ts';
import { countTokens } from '../daemon/text/token-count.ts';
import { createPlainBm25Peer } from './peers/bm25.ts';
import { createLangChainPeer } from './peers/langchain.ts';
import { createMiniSearchPeer } from './peers/minisearch.ts';
import {
  loadQaSet,
  type QaSet,
  type Question,
  type RankedPassage,
  type Scores,
  score,
} from './retrieval-data.ts';
import { isHeldOutArticle } from './squad.ts';
import { allLive, benchIndexOptions, benchRecords } from './support.ts';

export const corpusDirectory = resolve(import.meta.dirname, '../../shared/corpus');
const resultsFile = resolve(import.meta.dirname, 'results/retrieval.json');
/** The chunk-size sweep takes a quarter of an hour, so `npm run bench` leaves it out and keeps its last figures. */
const sweepFile = resolve(import.meta.dirname, 'results/retrieval-chunk-sweep.json');
/** Every 5th SQuAD question (1,080 of 5,397) keeps a run short while covering every article. */
const SQUAD_STRIDE = 5;
const DEPTH = 10;
export const CANDIDATES = 50;

export interface RetrievalBenchOptions {
  /** Also compare fusion weights and methods (cheap: reuses each question's candidates). */
  sweep?: boolean;
  /** Also compare chunk sizes (slow: one index per size). */
  chunkSweep?: boolean;
  /** Also time searches on 10k and 100k synthetic chunks. */
  latency?: boolean;
}

interface ChunkStats {
  chunks: number;
  meanTokens: number;
  targetTokens: number | string;
}

interface BuiltIndex {
  chunkIndex: ChunkIndex;
  stats: ChunkStats;
  passages: RankedPassage[];
  sourceIds: string[];
  dispose(): Promise<void>;
}

export async function buildIndex(
  set: QaSet,
  embedder: Embedder,
  targetTokens: number,
  overlapTokens: number,
) {
  const directory = mkdtempSync(join(tmpdir(), 'ckb-bench-retrieval-'));
  const connection = await connect(directory);
  const chunkIndex = await openChunkIndex(connection, embedder, benchIndexOptions(directory));
  const records: ChunkRecord[] = [];
  for (const [documentId, text] of set.documents) {
    for (const chunk of chunkDocument({ pages: [{ page: 1, text }] }, { targetTokens, overlapTokens })) {
      records.push(...benchRecords([chunk], documentId));
    }
  }
  for (let start = 0; start < records.length; start += 2000) {
    const batch = records.slice(start, start + 2000);
    await chunkIndex.add(batch, await embedder.embed(batch.map(chunkContextText)));
  }
  await chunkIndex.maintain();
  const totalTokens = records.reduce((sum, record) => sum + countTokens(record.text), 0);
  const built: BuiltIndex = {
    chunkIndex,
    stats: { chunks: records.length, meanTokens: Math.round(totalTokens / records.length), targetTokens },
    passages: records.map((record) => ({ documentId: record.sourceId, text: chunkContextText(record) })),
    sourceIds: [...set.documents.keys()],
    dispose: async () => {
      await chunkIndex.close();
      connection.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
  return built;
}

export const toRanked = (hits: { sourceId: string; text: string }[]): RankedPassage[] =>
  hits.map((hit) => ({ documentId: hit.sourceId, text: hit.text }));

interface CkbFigures {
  chunking: ChunkStats;
  /** What a conversation retrieves: hybrid search, fused, reranked, near-copies collapsed. */
  hybrid: Scores;
  /** The same on the questions nothing was fitted to (SQuAD: held-out articles; SciFact: dev claims). */
  hybridHeldOut: Scores;
  hybridTraining: Scores;
  fusedWithoutRerank: Scores;
  vectorOnly: Scores;
  fullTextOnly: Scores;
  fusionSweep?: Record<string, Scores>;
}

/** SQuAD: the held-out articles of bench/squad.ts; SciFact: its dev claims (BEIR's test set). */
export function isHeldOut(set: QaSet, question: Question): boolean {
  return set.name === 'scifact' ? question.isDev : isHeldOutArticle(question.goldDocuments[0] ?? '');
}

export function scoreWhere(
  set: QaSet,
  rankings: RankedPassage[][],
  keep: (question: Question) => boolean,
): Scores {
  const questions = set.questions.filter(keep);
  return score(
    { ...set, questions },
    rankings.filter((_, position) => keep(set.questions[position]!)),
  );
}

async function evaluateCkb(
  set: QaSet,
  embedder: Embedder,
  targetTokens: number,
  overlapTokens: number,
  fusionVariants: FusionOptions[],
): Promise<CkbFigures & { passages: RankedPassage[] }> {
  const built = await buildIndex(set, embedder, targetTokens, overlapTokens);
  const retriever = createRetriever({ chunkIndex: built.chunkIndex, embedder });
  // Every chunk of a benchmark's index is live, in its one application.
  const filter = 'bench';
  const rankings = {
    hybrid: [] as RankedPassage[][],
    fused: [] as RankedPassage[][],
    vector: [] as RankedPassage[][],
    text: [] as RankedPassage[][],
  };
  const variants: RankedPassage[][][] = fusionVariants.map(() => []);
  for (const question of set.questions) {
    const [vector] = await embedder.embed([question.text], { kind: 'query' });
    const [textHits, vectorHits, passages] = await Promise.all([
      built.chunkIndex.fullTextSearch(question.text, filter, CANDIDATES),
      built.chunkIndex.vectorSearch(vector!, filter, CANDIDATES),
      retriever.search({
        query: question.text,
        applicationId: filter,
        liveSources: allLive(),
        limit: 2 * DEPTH,
      }),
    ]);
    rankings.text.push(toRanked(textHits));
    rankings.vector.push(toRanked(vectorHits));
    rankings.hybrid.push(toRanked(passages));
    rankings.fused.push(toRanked(fuse(textHits, vectorHits, DEFAULT_FUSION)));
    fusionVariants.forEach((variant, position) => {
      variants[position]!.push(toRanked(rerank(question.text, fuse(textHits, vectorHits, variant))));
    });
  }
  await built.dispose();
  const figures: CkbFigures & { passages: RankedPassage[] } = {
    chunking: built.stats,
    hybrid: score(set, rankings.hybrid),
    hybridHeldOut: scoreWhere(set, rankings.hybrid, (question) => isHeldOut(set, question)),
    hybridTraining: scoreWhere(set, rankings.hybrid, (question) => !isHeldOut(set, question)),
    fusedWithoutRerank: score(set, rankings.fused),
    vectorOnly: score(set, rankings.vector),
    fullTextOnly: score(set, rankings.text),
    passages: built.passages,
  };
  if (fusionVariants.length > 0) {
    figures.fusionSweep = Object.fromEntries(
      fusionVariants.map((variant, position) => [
        `${variant.method}-${variant.textWeight}`,
        score(set, variants[position]!),
      ]),
    );
  }
  return figures;
}

async function evaluatePeers(set: QaSet, embedder: Embedder, passages: RankedPassage[], stats: ChunkStats) {
  const plain = createPlainBm25Peer(set);
  const plainRankings = set.questions.map((question) => plain.search(question.text, 2 * DEPTH));
  const miniSearch = createMiniSearchPeer(passages);
  const miniRankings = set.questions.map((question) => miniSearch.search(question.text, 2 * DEPTH));
  const langChain = await createLangChainPeer(set.documents, embedder);
  const langRankings: RankedPassage[][] = [];
  for (const question of set.questions) langRankings.push(await langChain.search(question.text, 2 * DEPTH));
  return {
    plainBm25: {
      chunking: {
        passages: plain.passages,
        meanWords: plain.meanWords,
        unit: set.name === 'scifact' ? 'whole abstracts' : 'paragraphs',
      },
      scores: score(set, plainRankings),
      scoresHeldOut: scoreWhere(set, plainRankings, (question) => isHeldOut(set, question)),
    },
    miniSearch: { chunking: { ...stats, note: 'the same chunks as ckb' }, scores: score(set, miniRankings) },
    langChain: {
      chunking: { chunks: langChain.chunks, targetTokens: '1000 characters, 200 overlap' },
      scores: score(set, langRankings),
    },
  };
}

const FUSION_VARIANTS: FusionOptions[] = [
  ...[0.5, 0.6, 0.7, 0.8, 0.9, 1].map((textWeight) => ({ method: 'weighted' as const, textWeight })),
  { method: 'rrf', textWeight: 0.5 },
  { method: 'rrf', textWeight: 0.7 },
];

async function qualityFigures(options: RetrievalBenchOptions) {
  const embedder = createHashedEmbedder();
  const figures: Record<string, unknown> = {};
  for (const [name, stride] of [
    ['squad', SQUAD_STRIDE],
    ['scifact', 1],
  ] as const) {
    const set = loadQaSet(corpusDirectory, name, stride);
    const ckb = await evaluateCkb(
      set,
      embedder,
      DEFAULT_TARGET_TOKENS,
      DEFAULT_OVERLAP_TOKENS,
      options.sweep ? FUSION_VARIANTS : [],
    );
    const { passages, ...ckbFigures } = ckb;
    const entry: Record<string, unknown> = {
      embedder: embedder.id,
      fusion: DEFAULT_FUSION,
      rerank: DEFAULT_RERANK,
      ckb: ckbFigures,
      peers: await evaluatePeers(set, embedder, passages, ckb.chunking),
    };
    if (options.chunkSweep) entry['chunkSweep'] = await chunkSweep(set, embedder);
    figures[name] = entry;
    console.error(`${name}: ${JSON.stringify(entry)}`);
  }
  return figures;
}

/** Hybrid retrieval, as shipped, at each chunk size: sizes beside every hit@k. */
async function chunkSweep(set: QaSet, embedder: Embedder) {
  const sweep: Record<string, unknown> = {};
  for (const targetTokens of [128, 256, 384, 512, 768]) {
    const figures = await evaluateCkb(set, embedder, targetTokens, DEFAULT_OVERLAP_TOKENS, []);
    sweep[String(targetTokens)] = {
      chunking: figures.chunking,
      hybrid: figures.hybrid,
      hybridHeldOut: figures.hybridHeldOut,
      fusedWithoutRerank: figures.fusedWithoutRerank,
    };
  }
  return sweep;
}

export async function run(options: RetrievalBenchOptions = {}): Promise<Record<string, unknown>> {
  const started = performance.now();
  const figures: Record<string, unknown> = {
    measuredAt: new Date().toISOString(),
    squadQuestionStride: SQUAD_STRIDE,
    quality: await qualityFigures(options),
  };
  if (options.latency) {
    const { latencyFigures } = await import('./retrieval-latency.ts');
    figures['latency'] = await latencyFigures();
  }
  figures['seconds'] = Math.round((performance.now() - started) / 1000);
  mkdirSync(resolve(resultsFile, '..'), { recursive: true });
  writeFileSync(options.chunkSweep ? sweepFile : resultsFile, `${JSON.stringify(figures, null, 2)}\n`);
  return figures;
}

if (import.meta.main) {
  const figures = await run({
    sweep: process.argv.includes('--sweep'),
    chunkSweep: process.argv.includes('--chunk-sweep'),
    latency: !process.argv.includes('--no-latency'),
  });
  console.log(JSON.stringify(figures, null, 2));
}
