/**
 * The words of a question that say what its asker wants rather than what it is about: "Where am I pointed to if I
 * want to check how Tika's incubation is going right now?" is about Tika's incubation; "want" and "going" say nothing
 * a passage answering it holds. Answerability (answerability.ts) weighs how much of a question the passages hold
 * without them.
 */
import { contentStems } from './content-words.ts';

/** The words a question may open with before "I": "Do I need...", "Why did I...". Any other capitalised word makes "I" a numeral. */
const OPENING =
  'Do|Does|Did|Can|Could|Should|Would|Will|Must|May|Might|Am|Was|What|Where|How|Why|When|Which|Who|If|So|And|But|Now|Then';

/**
 * A verb of wanting, needing, knowing or wondering said by the asker: after "I" (not a numeral: "Elizabeth I", "World
 * War I"), "we" or "you", maybe with an auxiliary or an adverb between ("do you know", "I was wondering", "I'd like to
 * know"). Lower-case only: a title's capitals ("I Want to Hold Your Hand") name a thing.
 */
const ASKERS_STATE = new RegExp(
  String.raw`(?<!(?<![\p{L}\p{N}])(?!(?:${OPENING})\s)\p{Lu}\p{L}*\s)(?<![\p{L}\p{N}])(?:I|[Ww]e|[Yy]ou)(?:['’](?:m|d|ve|ll))?\s+(?:(?:do|did|would|will|am|was|are|were|really|just|also|still|like|to)\s+)*(want|wanted|need|needed|wish|wonder|wondered|wondering|know)(?![\p{L}\p{N}])`,
  'gu',
);
/** "going" as an auxiliary or in an idiom: "going to rain", "what is going on", "how is it going right now?". */
const GOING = /(?<![\p{L}\p{N}])(going)(?=\s+(?:to\s+\p{Ll}|on\b|right\b|now\b)|\s*[?.!]|\s*$)/gu;
/** What a negative contraction leaves as a word ("doesn", "wasn"), and "whether": no word of a topic. */
const FUNCTION_WORD =
  /(?<![\p{L}\p{N}])((?:do|does|did|is|are|was|were|has|have|had|could|would|should|must|need)n['’]t|whether)(?![\p{L}\p{N}])/giu;

/**
 * Each pattern ends its match with the word it finds, its one group. The asker's verbs are read twice: "I want to
 * know" says two, the second once the first is read ("I to know").
 */
const PATTERNS = [ASKERS_STATE, ASKERS_STATE, GOING, FUNCTION_WORD];

/**
 * The terms of the message, and of the turn a follow-up refers to, that only say what the asker wants: each is left
 * out only when no other word of the two stems to it ("Why haven't ships used the haven at Dover?" keeps "haven").
 */
export function askersTerms(message: string, context?: string): Set<string> {
  const said: string[] = [];
  const rest = [message, context ?? ''].map((text) =>
    PATTERNS.reduce(
      (remaining, pattern) =>
        remaining.replace(pattern, (whole: string, word: string) => {
          said.push(word);
          return `${whole.slice(0, whole.length - word.length)} `;
        }),
      text,
    ),
  );
  const kept = new Set(rest.flatMap((text) => contentStems(text)));
  return new Set(said.flatMap((word) => contentStems(word)).filter((stem) => !kept.has(stem)));
}
