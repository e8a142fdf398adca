/** A question as the sentence scorer reads it: its words, and the kind of thing it asks for. */
import { type AnswerKind, answerKind, questionNames } from '../text/answer-kind.ts';
import { CONTEXT_WEIGHT, withContext } from '../text/follow-up.ts';
import { withPlainVerbs } from '../text/plain-verbs.ts';
import { isStopWord as isFunctionWord, term, words } from '../text/words.ts';
import { askersTerms } from './askers-words.ts';
import { contentStems, isStopWord } from './content-words.ts';

/** What a question asks, as the sentence scorer reads it. */
export interface Question {
  text: string;
  kind: AnswerKind;
  /**
   * Content stems and how much each counts: the message's own 1, words of the turn it follows up less. Phrasal
   * verbs are read as the word documents use (text/plain-verbs.ts): "come out" as "released".
   */
  terms: Map<string, number>;
  /** Every stem of the message and its context, stop words too: what an answer must add to. */
  known: Set<string>;
  /** The terms of the names the message and its context use ("Bo Peep"): a name ending in one is no answer. */
  names: Set<string>;
  /** The terms only the earlier question a follow-up refers to holds: what names its topic. */
  topic: ReadonlySet<string>;
  /**
   * The terms saying only what the asker wants ("I want to know whether..."), which answerability leaves out where
   * the passages do not hold them.
   */
  askers: ReadonlySet<string>;
  /** A wh-question, asking for something it does not say; a yes/no question may be confirmed in its own words. */
  open: boolean;
  /** A yes/no question ("Is there a hot tub at Breezy Cove?"): it asks to confirm what it says, not for a thing. */
  confirms: boolean;
  /** The message's content stems in order, phrasal verbs read as in `terms`: its phrases, as pairs of neighbours. */
  sequence: string[];
  /** The stem of the word a "what"/"which" question names its answer by ("which river", "the name of the stadium"). */
  focus?: string;
  /** The most or least of a thing a question asks for: "the most common type" (`superlativeAsked`). */
  superlative?: Superlative;
}

/** "most common type": the superlative's degree, adjective and noun, the latter two as stems. */
export interface Superlative {
  degree: 'most' | 'least';
  adjective: string;
  noun: string;
}

export function readQuestion(message: string, context?: string): Question {
  const terms = new Map<string, number>();
  for (const term of context ? contentStems(context) : []) terms.set(term, CONTEXT_WEIGHT);
  const own = contentStems(withPlainVerbs(message));
  for (const term of own) terms.set(term, 1);
  for (const word of framingWords(message)) terms.delete(term(word));
  const asked = withContext(message, context);
  const known = new Set([...words(asked).map(term), ...contentStems(asked), ...own]);
  const focus = questionFocus(message);
  const superlative = superlativeAsked(message);
  return {
    text: message,
    kind: answerKind(message),
    open: OPENS_WITH_WH_WORD.test(message),
    confirms: ASKS_TO_CONFIRM.test(message) && !WH_WORD.test(message),
    terms,
    known,
    names: questionNames(asked),
    askers: askersTerms(message, context),
    topic: new Set([...terms].filter(([, weight]) => weight < 1).map(([term]) => term)),
    sequence: own,
    ...(focus === undefined ? {} : { focus }),
    ...(superlative === undefined ? {} : { superlative }),
  };
}

/**
 * "the most common type", "the least visited island": a superlative of two words over the noun it ranks. Without
 * "the", "most" counts ("Where do most people live?").
 */
const SUPERLATIVE = /\bthe\s+(most|least)\s+([\p{L}-]+)\s+([\p{L}-]+)/iu;

function superlativeAsked(message: string): Superlative | undefined {
  const [, degree, adjective, noun] = SUPERLATIVE.exec(message) ?? [];
  if (degree === undefined || adjective === undefined || noun === undefined) return undefined;
  if ([adjective, noun].some((word) => isFunctionWord(word.toLowerCase()))) return undefined;
  return {
    degree: degree.toLowerCase() as Superlative['degree'],
    adjective: term(adjective.toLowerCase()),
    noun: term(noun.toLowerCase()),
  };
}

/**
 * Whether a sentence ranks the question's noun by the same degree with another adjective: "Most prominent type is
 * Trisomy 21" says "the most common type" in its own words. A superlative is seldom said twice the same way, and
 * the noun it ranks keeps it to the thing asked.
 */
export function saysSuperlative(superlative: Superlative, sentence: string): boolean {
  const sentenceWords = words(sentence);
  return sentenceWords.some(
    (word, at) => word === superlative.degree && term(sentenceWords[at + 2] ?? '') === superlative.noun,
  );
}

/** The wh-words, as a pattern's source. */
export const WH = '(?:what|which|who|whom|whose|when|where|why|how)';
/** A wh-word anywhere: what a question asks with. */
export const WH_WORD = new RegExp(String.raw`\b${WH}\b`, 'i');
/** The forms of "be" a question asks with, as a pattern's source. */
export const BE = '(?:is|are|was|were)';
/** The other verbs a question asks with ("Where should...", "How did..."), as a pattern's source. */
export const AUXILIARY = '(?:do|does|did|can|could|will|would|should|has|have|had|may|might|must)';
/** "Is there...", "And does it...": a question opening with its verb. */
const ASKS_TO_CONFIRM = new RegExp(String.raw`^\W*(?:(?:and|so|but)\s+)?(?:${BE}|${AUXILIARY})\b`, 'i');
/** "What ...", "In which year ...", "And how often ...": a wh-word among the first words, not one inside a clause. */
const OPENS_WITH_WH_WORD = new RegExp(String.raw`^\W*(?:[\p{L}'’]+\s+){0,2}${WH}\b`, 'iu');

/**
 * The words beyond `QUESTION_FRAME`'s (content-words.ts) that frame this question's ask, which a sentence answering
 * it rarely repeats: "happens", "take place", "how big".
 */
function framingWords(message: string): string[] {
  const measuring = MEASURING.exec(message)?.[1]?.toLowerCase();
  return [
    ...(asksWhatHappens(message) ? ['happens'] : []),
    ...(TAKES_PLACE.test(message) ? ['take', 'place'] : []),
    ...(measuring === undefined ? [] : [measuring]),
  ];
}

/**
 * "Take place" says an event happened, as "happen" does: a sentence saying where or when it did rarely repeats it
 * ("Where did Super Bowl 50 take place?", "The game was played ... at Levi's Stadium"), and the sentences that do
 * are about other events.
 */
const TAKES_PLACE = /\b(?:take|takes|took|taken|taking)\s+place\b/i;

/**
 * "How big was the slab?", "How fast was it moving?": the adjective frames a question asking for an amount, which a
 * sentence saying it rarely repeats ("a slab nearly 200 feet across"). Not those an amount is said with: "about half
 * a page long", "5,853 feet high", "3 feet deep".
 */
const MEASURING = /\bhow\s+(big|large|fast|heavy|far)\b/i;

/**
 * "What happens if I run the jar?", "What happened to the ship?": the verb only frames the question, and a sentence
 * saying "where parsing happens" answers nothing of it.
 */
function asksWhatHappens(message: string): boolean {
  // Two scans rather than one pattern with `.*` between the words, which backtracks in time quadratic in "what"s.
  const at = message.search(/\bwhat\b/i);
  return at >= 0 && /\bhappen(?:s|ed|ing)?\b/i.test(message.slice(at));
}

/** "which NFL team", "what is the name of the stadium": the first word after the framing, when it is a word of content. */
const FOCUS =
  /\b(what|which|whose)\s+(?:(?:is|was|are|were)\s+(?:the\s+)?(?:name|kind|type)\s+of\s+(?:the\s+|a\s+|an\s+)?)?([\p{L}-]+)/iu;

/**
 * Verbs "what" (never "which") is often the subject of ("What happens if...", "What caused the fire?"): the question then names no
 * kind of thing its answer is.
 */
const SUBJECT_VERB =
  /^(?:happen(?:s|ed)?|caus(?:es?|ed)|make(?:s)?|made|mean(?:s|t)?|lead(?:s)?|led|determin(?:es?|ed)|allow(?:s|ed)?|prevent(?:s|ed)?|affect(?:s|ed)?|occur(?:s|red)?|decid(?:es?|ed)|influenc(?:es?|ed)|became|becomes|remain(?:s|ed)|contain(?:s|ed)|includ(?:es?|ed)|requir(?:es?|ed)|describ(?:es?|ed)|replac(?:es?|ed)|follow(?:s|ed)|goes|went|comes|came)$/;

function questionFocus(message: string): string | undefined {
  const [, asking, focus] = FOCUS.exec(message) ?? [];
  const word = focus?.toLowerCase();
  if (word === undefined || isStopWord(word)) return undefined;
  return asking?.toLowerCase() === 'what' && SUBJECT_VERB.test(word) ? undefined : term(word);
}
