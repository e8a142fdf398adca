import type { ReplySource } from '../../src/api/conversations.ts';
import type { ContextPassage } from './types.ts';

/**
 * A reply's sources and its citation numbers are one list: `[n]` in the text names the n-th entry of the reply's
 * `sources`. Entries are sorted by score, best first (the contract's order), and a source page (with its URL) is
 * one entry however many of its passages were used. Both the conversation service, which lists the sources,
 * and the responders, which write the numbers, go through these functions, so the two cannot disagree.
 */

/** Passages of one page of one source (and one URL, for web pages) are cited as one source. */
export function sourceKey(passage: ContextPassage): string {
  return `${passage.sourceId}#${passage.page}#${passage.url ?? ''}`;
}

/**
 * The cited sources in the order of the reply's `sources`, best score first. A source page's score is that of its
 * best passage among all the reply was given, whichever of them it quoted, and that passage stands for it.
 */
export function citedSources(passages: ContextPassage[], used: number[]): ContextPassage[] {
  const best = new Map<string, ContextPassage>();
  for (const passage of passages) {
    const current = best.get(sourceKey(passage));
    if (!current || passage.score > current.score) best.set(sourceKey(passage), passage);
  }
  const byNumber = new Map(passages.map((passage) => [passage.number, passage]));
  const cited = new Map<string, ContextPassage>();
  for (const passage of used.map((number) => byNumber.get(number))) {
    if (passage && !cited.has(sourceKey(passage)))
      cited.set(sourceKey(passage), best.get(sourceKey(passage))!);
  }
  // Stable: equal scores keep the order in which `used` first names their pages.
  return [...cited.values()].sort((left, right) => right.score - left.score);
}

/** The citation number of every used passage: its source's 1-based position in `citedSources`. */
export function citationNumbers(passages: ContextPassage[], used: number[]): Map<number, number> {
  const positions = new Map(
    citedSources(passages, used).map((passage, index) => [sourceKey(passage), index + 1]),
  );
  const numbers = new Map<number, number>();
  for (const passage of passages) {
    const position = positions.get(sourceKey(passage));
    if (position !== undefined && used.includes(passage.number)) numbers.set(passage.number, position);
  }
  return numbers;
}

/** The reply's `sources`, as the API returns them. */
export function replySources(passages: ContextPassage[], used: number[]): ReplySource[] {
  return citedSources(passages, used).map((passage) => {
    const source: ReplySource = {
      source: passage.sourceName,
      page: passage.page,
      score: passage.score,
      source_id: passage.sourceId,
    };
    if (passage.url) source.url = passage.url;
    return source;
  });
}
