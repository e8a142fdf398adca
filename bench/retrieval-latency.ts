import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { connect } from '@lancedb/lancedb';
import { createHashedEmbedder } from '../daemon/embed/hashed.ts';
import { chunkContextText } from '../daemon/ingest/chunk.ts';
import { createRetriever } from '../daemon/retrieve/index.ts';
import { type ChunkRecord, openChunkIndex } from '../daemon/store/chunk-index.ts';
import { loadQaSet } from './retrieval-data.ts';
import { allLive, benchIndexOptions, benchRecords } from './support.ts';

const corpusDirectory = resolve(import.meta.dirname, '../../shared/corpus');
const CHUNKS_PER_SOURCE = 100;
const QUERIES = 200;
const BATCH = 5000;

/** Deterministic, so every run searches the same synthetic corpus. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Realistic chunks: runs of real sentences from both QA corpora, about 120 to 250 words each. */
function syntheticChunks(count: number): ChunkRecord[] {
  const sentences: string[] = [];
  for (const name of ['squad', 'scifact'] as const) {
    for (const text of loadQaSet(corpusDirectory, name, 1_000_000).documents.values()) {
      sentences.push(...text.split(/(?<=[.!?])\s+/).filter((sentence) => sentence.length > 20));
    }
  }
  const next = random(42);
  const records: ChunkRecord[] = [];
  for (let index = 0; index < count; index++) {
    const words = 120 + Math.floor(next() * 130);
    let start = Math.floor(next() * sentences.length);
    const parts: string[] = [];
    for (let length = 0; length < words; start = (start + 1) % sentences.length) {
      parts.push(sentences[start]!);
      length += sentences[start]!.split(' ').length;
    }
    const source = Math.floor(index / CHUNKS_PER_SOURCE);
    const chunk = {
      index: index % CHUNKS_PER_SOURCE,
      page: 1 + Math.floor((index % CHUNKS_PER_SOURCE) / 10),
      text: parts.join(' '),
      headings: [],
    };
    // An application usually owns a share of the table: half of all sources are the searched application's.
    records.push(...benchRecords([chunk], `src_${source}`, source % 2 === 0 ? 'bench' : 'other'));
  }
  return records;
}

function percentile(samples: number[], fraction: number): number {
  const sorted = [...samples].sort((left, right) => left - right);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]! * 10) / 10;
}

async function measure(count: number, queries: string[]) {
  const embedder = createHashedEmbedder();
  const records = syntheticChunks(count);
  const directory = mkdtempSync(join(tmpdir(), 'ckb-bench-latency-'));
  const connection = await connect(directory);
  const chunkIndex = await openChunkIndex(connection, embedder, benchIndexOptions(directory));
  let embedMilliseconds = 0;
  let bytes = 0;
  const buildStarted = performance.now();
  for (let start = 0; start < records.length; start += BATCH) {
    const batch = records.slice(start, start + BATCH);
    const texts = batch.map(chunkContextText);
    const embedStarted = performance.now();
    const vectors = await embedder.embed(texts);
    embedMilliseconds += performance.now() - embedStarted;
    bytes += texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
    await chunkIndex.add(batch, vectors);
  }
  await chunkIndex.maintain();
  const buildSeconds = (performance.now() - buildStarted) / 1000;
  const sourcesInApplication = Math.ceil(Math.ceil(count / CHUNKS_PER_SOURCE) / 2);
  const retriever = createRetriever({ chunkIndex, embedder });
  const timings = { hybrid: [] as number[], fullText: [] as number[], vector: [] as number[] };
  for (const query of queries) {
    let started = performance.now();
    await retriever.search({ query, applicationId: 'bench', liveSources: allLive(), limit: 10 });
    timings.hybrid.push(performance.now() - started);
    started = performance.now();
    await chunkIndex.fullTextSearch(query, 'bench', 50);
    timings.fullText.push(performance.now() - started);
    started = performance.now();
    const [vector] = await embedder.embed([query], { kind: 'query' });
    await chunkIndex.vectorSearch(vector!, 'bench', 50);
    timings.vector.push(performance.now() - started);
  }
  await chunkIndex.close();
  connection.close();
  rmSync(directory, { recursive: true, force: true });
  const summary = (samples: number[]) => ({ p50: percentile(samples, 0.5), p95: percentile(samples, 0.95) });
  return {
    chunks: count,
    sourcesInApplication,
    buildSeconds: Math.round(buildSeconds),
    searchMilliseconds: {
      hybrid: summary(timings.hybrid),
      fullText: summary(timings.fullText),
      vector: summary(timings.vector),
    },
    offlineEmbedding: {
      chunksPerSecond: Math.round(count / (embedMilliseconds / 1000)),
      megabytesPerSecond: Math.round((bytes / 1e6 / (embedMilliseconds / 1000)) * 100) / 100,
    },
  };
}

export async function latencyFigures(counts = [10_000, 100_000]) {
  const queries = loadQaSet(corpusDirectory, 'squad', 7)
    .questions.slice(0, QUERIES)
    .map((question) => question.text);
  const figures = [];
  for (const count of counts) {
    const figure = await measure(count, queries);
    console.error(`latency: ${JSON.stringify(figure)}`);
    figures.push(figure);
  }
  return figures;
}

if (import.meta.main) {
  const counts = process.argv.slice(2).map(Number);
  const figures = {
    measuredAt: new Date().toISOString(),
    target: 'hybrid p95 <= 50 ms at 100k chunks',
    sizes: await latencyFigures(counts.length > 0 ? counts : undefined),
  };
  const output = JSON.stringify(figures, null, 2);
  if (counts.length === 0)
    writeFileSync(resolve(import.meta.dirname, 'results/retrieval-latency.json'), `${output}\n`);
  console.log(output);
}
