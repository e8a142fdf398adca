import { overviewRequested } from './overview.ts';
import { isStopWord, words } from './words.ts';

/** One message of a conversation so far. */
export interface Turn {
  role: 'user' | 'assistant';
  content: string;
}

const FOLLOW_UP_OPENING = /^(and|but|also|so|then|what about|how about|why|how come|or)\b/i;
/** Pronouns that point back; demonstratives ("the team that won") are too common in standalone questions. */
const REFERRING_WORDS = new Set([
  'it',
  'its',
  'they',
  'them',
  'their',
  'theirs',
  'he',
  'him',
  'his',
  'she',
  'her',
  'hers',
]);
/** A message with fewer content words than this does not name its own topic ("why?", "the second one?"). */
const SELF_CONTAINED_TERMS = 2;

/**
 * The earlier question(s) a follow-up message refers back to ("and who funded it?" follows the question that
 * names the topic), as one text, or undefined when the message names its own topic.
 */
export function followUpContext(history: Turn[], message: string): string | undefined {
  const previous = history.filter((turn) => turn.role === 'user').at(-1);
  if (!previous || !isFollowUp(message)) return undefined;
  const before = history.slice(0, history.lastIndexOf(previous));
  // A request for an overview names its topic without its framing ("Tell me about ..."), which no passage holds.
  const asked = overviewRequested(previous.content)?.topic ?? previous.content;
  return withContext(asked, followUpContext(before, previous.content));
}

/**
 * Words of the earlier question a follow-up refers to count this much against the follow-up's own: they name the
 * topic, while what is asked is the follow-up's ("and how often are its reports provided?" asks how often).
 */
export const CONTEXT_WEIGHT = 0.5;

/** A message as full-text and vector search read it: after the earlier question(s) it follows up, if any. */
export function withContext(message: string, context: string | undefined): string {
  return context === undefined ? message : `${context} ${message}`;
}

export function isFollowUp(message: string): boolean {
  return FOLLOW_UP_OPENING.test(message.trim()) || !namesOwnTopic(message);
}

/**
 * Whether a message names what it asks about, pointing back at nothing: "and how often must the usage reports be
 * provided?" does, "and who funded it?" does not.
 */
export function namesOwnTopic(message: string): boolean {
  const messageWords = words(message);
  if (messageWords.some((word) => REFERRING_WORDS.has(word))) return false;
  return messageWords.filter((word) => !isStopWord(word)).length >= SELF_CONTAINED_TERMS;
}
