/**
 * The words of a question that say what its asker wants rather than what it is about: "Where am I pointed to if I
 * want to check how Tika's incubation is going right now?" is about Tika's incubation; "want" and "going" say nothing
 * a passage answering it must hold. Answerability (answerability.ts) counts them only where a passage holds them.
 */
import { contentStems } from './content-words.ts';

/**
 * What "I" follows when it is the asker: the words a question or a message opens with ("Do I need...", "Hi, I
 * want..."). After another capitalised word "I" is a numeral ("Elizabeth I", "World War I").
 */
const BEFORE_ASKER =
  'Do|Does|Did|Can|Could|Should|Would|Will|Must|May|Might|Am|Was|What|Where|How|Why|When|Which|Who|If|So|And|But|Now|Then|Hi|Hello|Hey|Sorry|Please|Thanks|Yes|No|OK|Ok|Because';

/**
 * A verb of wanting, needing, knowing or wondering said by the asker: after "I" (or a chat's "i"), "we" or "you", with
 * auxiliaries or adverbs maybe between ("do you know", "I was wondering", "I'd like to know", "I don't know").
 * Lower-case only: a title's capitals ("I Want to Hold Your Hand") name a thing.
 */
const ASKERS_STATE = new RegExp(
  String.raw`(?:(?<!(?<![\p{L}\p{N}])(?!(?:${BEFORE_ASKER})[ \t])\p{Lu}\p{L}*[ \t]+)(?<![\p{L}\p{N}])I|(?<![\p{L}\p{N}_])(?<!\p{L}['’])(?:i|[Ww]e|[Yy]ou))(?:['’](?:m|d|ve|ll))?\s+(?:(?:do|did|don['’]t|didn['’]t|not|would|will|should|could|can|may|might|must|am|was|are|were|ever|really|just|also|still|like|love|happen|to)\s+)*(want|wanted|need|needed|wish|wonder|wondered|wondering|know)(?![\p{L}\p{N}])`,
  'gu',
);
/**
 * "going" before "to" and a word that is no article or possessive ("going to rain", not "going to the harbour"),
 * before "on" ending a clause ("what is going on?"), before "now", or ending a sentence ("how is it going?").
 */
const GOING =
  /(?<![\p{L}\p{N}])(going)(?=\s+to\s+(?!(?:the|a|an|my|your|our|his|her|their|its|this|that)(?![\p{L}\p{N}]))\p{Ll}|\s+on\s*(?:[?.!,]|$)|\s+(?:right\s+)?now(?![\p{L}\p{N}])|\s*[?.!]|\s*$)/gu;
/** A negative contraction, whose remnant reads as a word ("doesn", "won"), and "whether": no word of a topic. */
const FUNCTION_WORD =
  /(?<![\p{L}\p{N}])((?:do|does|did|is|are|was|were|has|have|had|could|would|should|might|must|need|ca|wo|sha|ai)n['’]t|whether)(?![\p{L}\p{N}])/giu;

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
