/**
 * Replies read off a passage's own order rather than scored sentence by sentence: a request for an overview of a
 * source (text/overview.ts) is answered with what its opening passage begins with, and a question asking what
 * something is (text/definition.ts) with the sentence that has it as its subject and what follows it.
 */
import { type DefinitionRequest, defines, definitionAsked } from '../text/definition.ts';
import { holdsTopic, overviewRequested } from '../text/overview.ts';
import { wordCount } from '../text/words.ts';
import { type Candidate, candidateSentences, repeats } from './candidates.ts';
import type { ContextPassage } from './types.ts';

/** Such a reply quotes sentences in order while it stays this short (its first sentence, whatever its length)... */
const LEAD_WORDS = 60;
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
  return leadFrom(leadSentences(first), 0);
}

/**
 * For a question asking what something is, the first sentence of the passages, in their order, that opens with it
 * as its subject, and the sentences after it in its passage. None when no sentence does: the question is answered
 * as any other. The context puts the opening of a source named by the topic first (services/answer-context.ts).
 */
export function definitionSentences(message: string, relevant: ContextPassage[]): Candidate[] | undefined {
  const definition = definitionAsked(message);
  if (!definition) return undefined;
  for (const passage of relevant) {
    const lead = leadSentences(passage);
    const start = definingSentence(definition, lead);
    if (start >= 0) return leadFrom(lead, start);
  }
  return undefined;
}

/** The position of the sentence defining the topic among a passage's sentences, or -1. */
export function definingSentence(definition: DefinitionRequest, lead: { sentence: string }[]): number {
  return lead.findIndex((candidate) => defines(definition, candidate.sentence));
}

/** A passage's sentences that can lead a reply, in order: no headings, fragments, links or badges. */
export function leadSentences(passage: ContextPassage): Candidate[] {
  return candidateSentences([passage]).filter(
    (candidate) =>
      !candidate.heading &&
      wordCount(candidate.sentence) >= LEAD_SENTENCE_WORDS &&
      !LINK.test(candidate.sentence),
  );
}

/** The sentences from `start` on, each once, while the reply stays within its words. */
function leadFrom(lead: Candidate[], start: number): Candidate[] | undefined {
  const chosen: Candidate[] = [];
  let budget = LEAD_WORDS;
  for (const candidate of lead.slice(start)) {
    if (chosen.some((other) => repeats(candidate, other))) continue;
    const length = wordCount(candidate.sentence);
    if (chosen.length > 0 && length > budget) break;
    chosen.push(candidate);
    budget -= length;
  }
  return chosen.length > 0 ? chosen : undefined;
}
