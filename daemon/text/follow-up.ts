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
 * Forms the retrieval query of a follow-up question from the conversation so far: a message that refers back
 * ("and who funded it?") is searched together with the user's earlier question, which names the topic.
 */
export function retrievalQuery(history: Turn[], message: string): string {
  const context = followUpContext(history, message);
  return context === undefined ? message : `${context} ${message}`;
}

/**
 * The earlier question(s) a follow-up message refers back to, as one text, or undefined when the message names
 * its own topic. The responder weighs these words below the message's own.
 */
export function followUpContext(history: Turn[], message: string): string | undefined {
  const previous = history.filter((turn) => turn.role === 'user').at(-1);
  if (!previous || !isFollowUp(message)) return undefined;
  return retrievalQuery(history.slice(0, history.lastIndexOf(previous)), previous.content);
}

export function isFollowUp(message: string): boolean {
  const messageWords = words(message);
  if (FOLLOW_UP_OPENING.test(message.trim())) return true;
  if (messageWords.some((word) => REFERRING_WORDS.has(word))) return true;
  return messageWords.filter((word) => !isStopWord(word)).length < SELF_CONTAINED_TERMS;
}
