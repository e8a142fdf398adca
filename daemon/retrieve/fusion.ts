import type { ChunkHit } from '../store/chunk-index.ts';

export interface FusionOptions {
  /** `weighted`: a weighted sum of normalised scores; `rrf`: weighted reciprocal rank fusion. */
  method: 'weighted' | 'rrf';
  /** Share of the full-text score, 0 to 1; the vector score gets the rest. */
  textWeight: number;
}

/**
 * Measured on the QA sets (bench/retrieval.ts --sweep): with the offline embedder BM25 carries nearly all the
 * signal (SciFact: BM25 alone is best), so the vector side only breaks ties and rescues paraphrases. Weight 0.9
 * was best of 0.5 to 0.9 on both sets; RRF and equal weights were clearly worse.
 */
export const DEFAULT_FUSION: FusionOptions = { method: 'weighted', textWeight: 0.9 };
const RRF_K = 60;

/** One list of the hits of both searches, best first, each scored in [0, 1]. */
export function fuse(textHits: ChunkHit[], vectorHits: ChunkHit[], options: FusionOptions): ChunkHit[] {
  const textScores = options.method === 'rrf' ? rankScores(textHits) : relativeScores(textHits);
  const vectorScores = options.method === 'rrf' ? rankScores(vectorHits) : relativeScores(vectorHits);
  const hits = new Map<string, ChunkHit>();
  for (const hit of [...textHits, ...vectorHits]) hits.set(hitKey(hit), hit);
  const best = options.method === 'rrf' ? 1 / (RRF_K + 1) : 1;
  const fused: ChunkHit[] = [];
  for (const [key, hit] of hits) {
    const score =
      options.textWeight * (textScores.get(key) ?? 0) +
      (1 - options.textWeight) * (vectorScores.get(key) ?? 0);
    fused.push({ ...hit, score: clamp(score / best) });
  }
  return fused.sort((left, right) => right.score - left.score);
}

/**
 * One list of the hits of several searches of the same candidates, best first, each scored by its mean over them
 * (0 where a search did not find it), rescaled so the best scores 1 as a fused list's best does. A source replaced
 * between the searches shows only in its newest generation.
 */
export function meanScores(lists: ChunkHit[][]): ChunkHit[] {
  if (lists.length === 1) return lists[0]!;
  const newest = new Map<string, number>();
  for (const hit of lists.flat())
    newest.set(hit.sourceId, Math.max(newest.get(hit.sourceId) ?? hit.generation, hit.generation));
  const merged = new Map<string, ChunkHit>();
  for (const hits of lists) {
    for (const hit of hits) {
      if (hit.generation < newest.get(hit.sourceId)!) continue;
      const key = hitKey(hit);
      merged.set(key, { ...hit, score: (merged.get(key)?.score ?? 0) + hit.score / lists.length });
    }
  }
  const best = Math.max(0, ...[...merged.values()].map((hit) => hit.score));
  return [...merged.values()]
    .map((hit) => ({ ...hit, score: best > 0 ? hit.score / best : 0 }))
    .sort((left, right) => right.score - left.score);
}

export function hitKey(hit: Pick<ChunkHit, 'sourceId' | 'chunkIndex'>): string {
  return `${hit.sourceId}\u0000${hit.chunkIndex}`;
}

/** Scores relative to the best hit of the list, so unbounded BM25 and cosine similarity meet on one scale. */
function relativeScores(hits: ChunkHit[]): Map<string, number> {
  const scores = new Map<string, number>();
  if (hits.length === 0) return scores;
  const best = Math.max(...hits.map((hit) => hit.score));
  const worst = Math.min(0, ...hits.map((hit) => hit.score));
  for (const hit of hits) scores.set(hitKey(hit), best > worst ? (hit.score - worst) / (best - worst) : 1);
  return scores;
}

function rankScores(hits: ChunkHit[]): Map<string, number> {
  return new Map(hits.map((hit, rank) => [hitKey(hit), 1 / (RRF_K + rank + 1)]));
}

function clamp(value: number): number {
  return Math.min(1, Math.max(0, value));
}
