import type { QaSet, RankedPassage } from '../retrieval-data.ts';

const K1 = 1.2;
const B = 0.75;

/**
 * Plain BM25 as the textbook gives it (k1 1.2, b 0.75; lower-cased words, no stemming, no stop words) over each
 * document's paragraphs (blank-line separated; a SciFact abstract is one passage, as in BEIR): the floor the
 * issue measures ckb against, independent of ckb's chunker and of LanceDB.
 */
export function createPlainBm25Peer(set: QaSet) {
  const passages: RankedPassage[] = [];
  for (const [documentId, text] of set.documents) {
    const paragraphs = set.name === 'scifact' ? [text] : text.split(/\n\s*\n/).filter((part) => part.trim());
    for (const paragraph of paragraphs) passages.push({ documentId, text: paragraph });
  }
  const counts = passages.map((passage) => termCounts(passage.text));
  const lengths = counts.map((terms) => [...terms.values()].reduce((sum, count) => sum + count, 0));
  const averageLength = lengths.reduce((sum, length) => sum + length, 0) / Math.max(1, lengths.length);
  const postings = new Map<string, number[]>();
  counts.forEach((terms, position) => {
    for (const term of terms.keys()) {
      const list = postings.get(term) ?? [];
      list.push(position);
      postings.set(term, list);
    }
  });
  return {
    passages: passages.length,
    meanWords: Math.round(averageLength),
    search(query: string, limit: number): RankedPassage[] {
      const scores = new Map<number, number>();
      for (const term of new Set(words(query))) {
        const list = postings.get(term);
        if (!list) continue;
        const idf = Math.log(1 + (passages.length - list.length + 0.5) / (list.length + 0.5));
        for (const position of list) {
          const frequency = counts[position]!.get(term)!;
          const norm = frequency + K1 * (1 - B + (B * lengths[position]!) / averageLength);
          scores.set(position, (scores.get(position) ?? 0) + (idf * frequency * (K1 + 1)) / norm);
        }
      }
      return [...scores.entries()]
        .sort((left, right) => right[1] - left[1])
        .slice(0, limit)
        .map(([position]) => passages[position]!);
    },
  };
}

function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

function termCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of words(text)) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}
