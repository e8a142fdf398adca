/**
 * A sentence giving a name to what the best one names only by its kind: "...skiing Tunnel Creek was an idea hatched
 * in a bar." is followed in its story by "Outside the Foggy Goggle, a bar at the base of the ski area, ...". A
 * reader asking where the idea was hatched wants the bar's name, which a writer gives in apposition: the name, a
 * comma, and the kind again.
 */
import { type Candidate, placedFrom } from './candidates.ts';
import type { Finding } from './extract.ts';

/** A sentence ending on a thing named by its kind alone: "...hatched in a bar." */
const ENDS_ON_KIND = /\b(?:a|an)\s+(\p{Ll}[\p{Ll}-]*)[.!]?["”’)]?$/u;

/**
 * A capitalised word of a name: its start is no letter's neighbour, so a pattern does not rescan a long run of
 * letters from each capital in it.
 */
const NAME_WORD = String.raw`(?<![\p{L}'’-])\p{Lu}[\p{L}'’-]*`;

/** How many sentences after the best one a name for its thing is looked for, in its passage. */
const NAMING_DISTANCE = 3;

/** The sentence after the best one, close by in its passage, that names the thing it ends on, if any. */
export function namingSentence(findings: readonly Finding[]): Candidate | undefined {
  const best = findings[0]?.candidate;
  const kind = best && ENDS_ON_KIND.exec(best.sentence)?.[1];
  if (!best || kind === undefined) return undefined;
  // "the Foggy Goggle, a bar": "the" and a name of up to four capitalised words, or such a name of two words or more
  // not opening the sentence, then a comma and the same kind. Not "In March, a year after..." nor "Luckily, a dog
  // warden...". Bounded runs keep a long run of capitalised words from being rescanned from each of them.
  const apposition = new RegExp(
    String.raw`(?:\bthe\s+${NAME_WORD}(?:\s+${NAME_WORD}){0,3}|(?<=\S\s+)${NAME_WORD}(?:\s+${NAME_WORD}){1,3}),\s+(?:a|an)\s+${kind}(?![\p{L}])`,
    'u',
  );
  for (let offset = 1; offset <= NAMING_DISTANCE; offset++) {
    const after = findings.find(({ candidate }) => placedFrom(candidate, best, offset))?.candidate;
    if (after && apposition.test(after.sentence)) return after;
  }
  return undefined;
}
