/** A question as the sentence scorer reads it: its words, and the kind of thing it asks for. */
import { term, words } from '../text/words.ts';
import { contentStems, isStopWord } from './content-words.ts';

export type AnswerKind = 'date' | 'number' | 'person' | 'place' | 'reason' | 'other';

/** What a question asks, as the sentence scorer reads it. */
export interface Question {
  text: string;
  kind: AnswerKind;
  /** Content stems and how much each counts: the message's own 1, words of the turn it follows up less. */
  terms: Map<string, number>;
  /** Every stem of the message and its context, stop words too: what an answer must add to. */
  known: Set<string>;
  /** The message's content stems in order: its phrases, as pairs of neighbours. */
  sequence: string[];
  /** The stem of the word a "what"/"which" question names its answer by ("which river", "the name of the stadium"). */
  focus?: string;
}

/** Words of the earlier turn a follow-up refers to count this much against the message's own. */
const CONTEXT_WEIGHT = 0.5;

export function readQuestion(message: string, context?: string): Question {
  const terms = new Map<string, number>();
  for (const term of context ? contentStems(context) : []) terms.set(term, CONTEXT_WEIGHT);
  for (const term of contentStems(message)) terms.set(term, 1);
  const known = new Set(words(`${context ?? ''} ${message}`).map(term));
  const focus = questionFocus(message);
  return {
    text: message,
    kind: answerKind(message),
    terms,
    known,
    sequence: contentStems(message),
    ...(focus === undefined ? {} : { focus }),
  };
}

/** "which NFL team", "what is the name of the stadium": the first word after the framing, when it is a word of content. */
const FOCUS =
  /\b(?:what|which|whose)\s+(?:(?:is|was|are|were)\s+(?:the\s+)?(?:name|kind|type)\s+of\s+(?:the\s+|a\s+|an\s+)?)?([\p{L}-]+)/iu;

function questionFocus(message: string): string | undefined {
  const word = FOCUS.exec(message)?.[1]?.toLowerCase();
  return word === undefined || isStopWord(word) ? undefined : term(word);
}

/** What a question's wh-phrase asks for; "what" and "which" name it by the noun they take ("which river"). */
const ASKS: readonly (readonly [AnswerKind, RegExp])[] = [
  ['date', /\b(?:when|(?:what|which) (?:year|date|day|month|century|decade|time|period|era|season))\b/],
  [
    'number',
    /\bhow (?:many|much|long|old|far|large|big|tall|high|often|fast|heavy|deep|wide)\b|\b(?:what|which) (?:percentage|percent|number|amount|proportion|size|price|cost|population|rate)\b/,
  ],
  [
    'person',
    /\b(?:who|whom|whose)\b|\b(?:what|which) (?:\w+ )?(?:university|company|organi[sz]ation|team|school|college|agency|firm|publisher|person|man|woman|author|character|president|king|queen|emperor|leader|player|coach|scientist|artist|composer|architect|family|dynasty|group|band|party|newspaper|network|club)\b/,
  ],
  [
    'place',
    /\bwhere\b|\b(?:what|which) (?:\w+ )?(?:country|city|state|town|region|continent|place|county|island|river|location|mountain|sea|ocean|lake|park|street|stadium|building|hotel|province|district|neighbou?rhood)\b/,
  ],
  ['reason', /\bwhy\b|\bwhat (?:was |is |were |are )?(?:the )?(?:main )?(?:reason|cause|purpose)\b/],
];

/** The kind of the question's first wh-phrase: "how many ..., when ..." asks for a number. */
export function answerKind(question: string): AnswerKind {
  const text = question.toLowerCase();
  let first: { kind: AnswerKind; at: number } | undefined;
  for (const [kind, pattern] of ASKS) {
    const at = pattern.exec(text)?.index;
    if (at !== undefined && (!first || at < first.at)) first = { kind, at };
  }
  return first?.kind ?? 'other';
}
