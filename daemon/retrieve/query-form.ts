/**
 * What a query's form says about the passage that answers it. A question is answered by one sentence holding its
 * words and the kind of thing it asks for (a year for "when"); a statement (a claim, a topic, keywords) is matched
 * by the passage about it as a whole. The reranker weighs its signals differently for the two (rerank.ts).
 */

export type AnswerKind = 'time' | 'number' | 'name';

const QUESTION_START =
  /^\s*(what|which|who|whom|whose|when|where|why|how|is|are|was|were|do|does|did|can|could|should|would|will|has|have|had|name|list)\b/i;
/**
 * "What" inside a sentence ("Trotsky thought what was needed") and blanks to fill ("___ helps the biosphere").
 * Inside a sentence, "when", "where" and "who" are as often relative ("depends on where the mutation is located").
 */
const QUESTION_INSIDE = /\?\s*$|\b(what|how many|how much)\b|_{2,}/i;

export function isQuestion(query: string): boolean {
  return QUESTION_START.test(query) || QUESTION_INSIDE.test(query);
}

const ASKS_TIME = /\b(when|what year|which year|what decade|what century|what date|what month)\b/i;
const ASKS_NUMBER =
  /\bhow (many|much|long|old|far|large|big|tall|high)\b|\bwhat (percentage|percent|number|amount)\b/i;
const ASKS_NAME = /\b(who|whom|whose|where)\b/i;

/** The kind of answer a question asks for, when its wording says so. */
export function answerKind(query: string): AnswerKind | undefined {
  if (ASKS_TIME.test(query)) return 'time';
  if (ASKS_NUMBER.test(query)) return 'number';
  if (ASKS_NAME.test(query)) return 'name';
  return undefined;
}

const YEAR_OR_MONTH =
  /\b(1\d{3}|20\d{2})s?\b|\b(january|february|march|april|may|june|july|august|september|october|november|december|century|decade)\b/i;
const NUMBER =
  /\d|\b(one|two|three|four|five|six|seven|eight|nine|ten|hundred|thousand|million|billion|dozen)\b/i;
const CAPITALISED_WORD = /\b[A-Z][a-z]+/g;

/**
 * Whether a sentence holds something of the kind asked for. A name is a capitalised word the question does not
 * hold (the sentence's first word is capitalised anyway, so it is left out).
 */
export function holdsAnswerKind(kind: AnswerKind, sentence: string, queryWords: Set<string>): boolean {
  if (kind === 'time') return YEAR_OR_MONTH.test(sentence);
  if (kind === 'number') return NUMBER.test(sentence);
  const names = sentence.slice(1).match(CAPITALISED_WORD) ?? [];
  return names.some((name) => !queryWords.has(name.toLowerCase()));
}
