/**
 * What the reranker reads of a passage whatever the query: its sentences, terms and word-vector rows. Reading
 * them is most of a rerank's work (50 passages of 768 tokens a query), and the passages of one knowledge base
 * come back query after query, so each is read once and kept while it keeps being asked for.
 */
import type { ChunkHit } from '../store/chunk-index.ts';
import { vectorRows } from '../text/meaning-match.ts';
import { cachedReader } from '../text/reading-cache.ts';
import { paragraphs, sentences } from '../text/sentences.ts';
import { contentTerms, isStopWord, term, words } from '../text/words.ts';

/** Kept between queries (reading-cache.ts), so read-only. */
export interface SentenceTerms {
  readonly text: string;
  readonly terms: readonly string[];
  readonly termSet: ReadonlySet<string>;
  /**
   * Its words, function words too, each between spaces (" in the 1990s "): `includes(" word ")` finds one. A set
   * of them would take a third of a cached passage's memory.
   */
  readonly spacedWords: string;
  /** The word-vector rows of its content words, each once. */
  readonly rows: Int32Array;
}

export interface PassageTerms {
  readonly all: ReadonlySet<string>;
  readonly headings: ReadonlySet<string>;
  readonly sentences: readonly SentenceTerms[];
  readonly paragraphs: readonly ReadonlySet<string>[];
  /** How often each term occurs in the passage's sentences. */
  readonly counts: ReadonlyMap<string, number>;
  /** Its content terms, repeats included. */
  readonly length: number;
}

/** A passage's reading: about 21 bytes a character of its text. */
export const passageTerms = cachedReader(
  (hit: Pick<ChunkHit, 'text' | 'headings'>) => `${hit.headings.join('\n')}\u0000${hit.text}`,
  (hit) => read(hit.text, hit.headings.join('\n')),
);

function read(text: string, headingLines: string): PassageTerms {
  const headings = new Set(contentTerms(headingLines));
  // Each paragraph's sentences, read once for both: `sentences` reads no unit across a paragraph break.
  const byParagraph = paragraphs(text).map((paragraph) =>
    sentences(paragraph).map((text): SentenceTerms => {
      // contentTerms(text), from the words already read.
      const sentenceWords = words(text);
      const terms = sentenceWords.filter((word) => !isStopWord(word)).map(term);
      return {
        text,
        terms,
        termSet: new Set(terms),
        spacedWords: ` ${sentenceWords.join(' ')} `,
        rows: vectorRows(sentenceWords),
      };
    }),
  );
  const split = byParagraph.flat();
  const all = new Set(headings);
  const counts = new Map<string, number>();
  let length = 0;
  for (const sentence of split) {
    for (const term of sentence.terms) {
      all.add(term);
      counts.set(term, (counts.get(term) ?? 0) + 1);
      length++;
    }
  }
  const blocks = byParagraph.map((paragraph) => new Set(paragraph.flatMap((sentence) => sentence.terms)));
  return { all, headings, sentences: split, paragraphs: blocks, counts, length };
}
