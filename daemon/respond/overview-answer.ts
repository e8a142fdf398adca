/** The reply to a request for an overview of a source (text/overview.ts): what its first passage opens with. */
import { holdsTopic, overviewRequested } from '../text/overview.ts';
import { wordCount } from '../text/words.ts';
import { type Candidate, candidateSentences, repeats } from './candidates.ts';
import type { ContextPassage } from './types.ts';

/** An overview quotes the opening sentences while it stays this short (its first sentence, whatever its length)... */
const OVERVIEW_WORDS = 60;
/** ...of those with at least this many words: a badge, a label or a fragment says nothing of what a source is about. */
const LEAD_SENTENCE_WORDS = 5;
/** A line with a link in it is navigation or a badge in a source's opening more often than a sentence about it. */
const LINK = /https?:\/\/|\]\(/;

/**
 * For a request for an overview whose topic the first passage holds (any, when it points at a source: "What is
 * this document about?"), that passage's opening sentences in order, whole. The context puts the opening of the
 * source asked about first (services/answer-context.ts).
 */
export function overviewSentences(message: string, relevant: ContextPassage[]): Candidate[] | undefined {
  const overview = overviewRequested(message);
  const first = relevant[0];
  if (!overview || !first) return undefined;
  if (!holdsTopic(overview, `${first.sourceName}\n${first.text}`)) return undefined;
  const lead = candidateSentences([first]).filter(
    (candidate) =>
      !candidate.heading &&
      wordCount(candidate.sentence) >= LEAD_SENTENCE_WORDS &&
      !LINK.test(candidate.sentence),
  );
  const chosen: Candidate[] = [];
  let budget = OVERVIEW_WORDS;
  for (const candidate of lead) {
    if (chosen.some((other) => repeats(candidate, other))) continue;
    const length = wordCount(candidate.sentence);
    if (chosen.length > 0 && length > budget) break;
    chosen.push(candidate);
    budget -= length;
  }
  return chosen.length > 0 ? chosen : undefined;
}
