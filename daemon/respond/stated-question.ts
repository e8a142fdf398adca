/**
 * A sentence saying what a question asks in its own words, in its order, and going on: "Where should the org folder
 * be placed?" is answered by "The org folder should be placed under web root.", not by the three sentences the model
 * prefers for holding a place ("...if you place the org folder under the client folder"). The model weighs phrases
 * as pairs of neighbouring words; a sentence holding all of a question's words as one run, followed by more, is the
 * question stated with its answer.
 */
import type { Finding } from './extract.ts';
import { type Question, WH } from './question.ts';

/**
 * A question asking about an act: with an auxiliary ("Where should...", "How did...") or a passive ("Where is the
 * Louvre located?"). Its words then hold a verb: "What is COUNTER's Code of Practice?" holds only a name, which any
 * sentence going on from it would state.
 */
const ASKS_ABOUT_AN_ACT = new RegExp(
  String.raw`^\W*${WH}\s+(?:(?:do|does|did|should|can|could|will|would|must|may|might|has|have|had)\b|(?:is|are|was|were)\s+(?:[\p{L}'’-]+\s+)*?[\p{L}]+(?:ed|en)\b)`,
  'iu',
);

/** Fewer words than this in a run are a phrase many sentences hold: "install Node". */
const STATED_TERMS = 3;

/** The findings with the first sentence stating the question (see above) moved first, when there is one. */
export function statedFirst(question: Question, ranked: Finding[]): Finding[] {
  const asked = question.sequence;
  if (asked.length < STATED_TERMS || !ASKS_ABOUT_AN_ACT.test(question.text)) return ranked;
  const stated = ranked.findIndex(({ candidate }) => !candidate.heading && states(asked, candidate.sequence));
  if (stated <= 0) return ranked;
  return [ranked[stated]!, ...ranked.slice(0, stated), ...ranked.slice(stated + 1)];
}

/** Whether `sequence` holds all of `asked` as one run, and more content words. */
function states(asked: readonly string[], sequence: readonly string[]): boolean {
  if (sequence.length <= asked.length) return false;
  for (let start = 0; start + asked.length <= sequence.length; start++)
    if (asked.every((term, offset) => sequence[start + offset] === term)) return true;
  return false;
}
