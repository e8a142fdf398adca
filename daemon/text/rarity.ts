/**
 * How rare each term is among the texts a query is matched against: an inverse document frequency over those
 * candidates alone, so the words that tell them apart count most. The reranker weighs passages by it, the
 * responder sentences.
 */
export function rarityAmong<T>(
  terms: Iterable<string>,
  candidates: readonly T[],
  holds: (candidate: T, term: string) => boolean,
): Map<string, number> {
  const weights = new Map<string, number>();
  for (const term of terms) {
    const frequency = candidates.filter((candidate) => holds(candidate, term)).length;
    weights.set(term, Math.log(1 + (candidates.length + 1) / (frequency + 0.5)));
  }
  return weights;
}
