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

/** How many sentences after the best one a name for its thing is looked for, in its passage. */
const NAMING_DISTANCE = 3;

/** The sentence after the best one, close by in its passage, that names the thing it ends on, if any. */
export function namingSentence(findings: readonly Finding[]): Candidate | undefined {
  const best = findings[0]?.candidate;
  const kind = best && ENDS_ON_KIND.exec(best.sentence)?.[1];
  if (!best || kind === undefined) return undefined;
  // "the Foggy Goggle, a bar": capitalised words, a comma, then the same kind.
  const apposition = new RegExp(String.raw`\p{Lu}[\p{L}'’-]*,\s+(?:a|an)\s+${kind}\b`, 'u');
  for (let offset = 1; offset <= NAMING_DISTANCE; offset++) {
    const after = findings.find(({ candidate }) => placedFrom(candidate, best, offset))?.candidate;
    if (after && apposition.test(after.sentence)) return after;
  }
  return undefined;
}
