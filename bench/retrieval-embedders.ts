import { resolve } from 'node:path';
import type { Embedder } from '../daemon/embed/embedder.ts';
import { createHashedEmbedder } from '../daemon/embed/hashed.ts';
import { chunkContextText, chunkDocument } from '../daemon/ingest/chunk.ts';
import { createCombinedEmbedder, createGloveEmbedder } from './glove-embedder.ts';
import { loadQaSet, type QaSet, type RankedPassage, score } from './retrieval-data.ts';

const corpusDirectory = resolve(import.meta.dirname, '../../shared/corpus');

/** Exact (brute-force) vector-only ranking, so the comparison isolates the embedder from the index. */
async function vectorOnly(set: QaSet, embedder: Embedder) {
  const passages: RankedPassage[] = [];
  for (const [documentId, text] of set.documents) {
    for (const chunk of chunkDocument({ pages: [{ page: 1, text }] })) {
      passages.push({ documentId, text: chunkContextText(chunk) });
    }
  }
  const started = performance.now();
  const vectors = await embedder.embed(passages.map((passage) => passage.text));
  const seconds = (performance.now() - started) / 1000;
  const rankings: RankedPassage[][] = [];
  for (const question of set.questions) {
    const [query] = await embedder.embed([question.text], { kind: 'query' });
    const scored = vectors.map((vector, position) => {
      let similarity = 0;
      for (let dimension = 0; dimension < vector.length; dimension++) {
        similarity += vector[dimension]! * query![dimension]!;
      }
      return { position, similarity };
    });
    scored.sort((left, right) => right.similarity - left.similarity);
    rankings.push(scored.slice(0, 20).map((item) => passages[item.position]!));
  }
  return { chunksPerSecond: Math.round(passages.length / seconds), scores: score(set, rankings) };
}

/** Compares the offline embedder designs on both QA sets (vector-only retrieval). */
export async function embedderFigures() {
  const designs: Embedder[] = [
    createHashedEmbedder({ dimensions: 256 }),
    createHashedEmbedder({ dimensions: 512 }),
    createHashedEmbedder({ dimensions: 1024 }),
    createGloveEmbedder(),
    createCombinedEmbedder(),
  ];
  const figures: Record<string, Record<string, unknown>> = {};
  for (const [name, stride] of [
    ['squad', 5],
    ['scifact', 1],
  ] as const) {
    const set = loadQaSet(corpusDirectory, name, stride);
    for (const embedder of designs) {
      const result = await vectorOnly(set, embedder);
      figures[embedder.id] = { ...figures[embedder.id], [name]: result };
      console.error(`${embedder.id} ${name}: ${JSON.stringify(result)}`);
    }
  }
  return figures;
}

if (import.meta.main) console.log(JSON.stringify(await embedderFigures(), null, 2));
