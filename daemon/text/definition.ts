/**
 * Questions asking what something or who someone is ("What is Mammoth?", "What's Apache Tika?", "What are Harvard
 * sentences?", "Who is Chris Rudolph?"). Their words are the topic's alone, so the sentences matching them best are
 * any that name it often (a badge line, a code sample, a quote signed with the name); what answers them is the
 * sentence with the topic as its subject ("Mammoth is designed to...") or in apposition ("Chris Rudolph, the
 * marketing manager for Stevens Pass, ...").
 */
import { sentences } from './sentences.ts';
import { contentTerms, isStopWord } from './words.ts';

export interface DefinitionRequest {
  /** The words naming what is asked about, without a leading article ("Hauptlied" for "What is a Hauptlied?"). */
  topic: string;
  /** The topic's content stems. */
  terms: string[];
}

const ASKED =
  /^(?<asker>what|who)(?:'s|’s|\s+is|\s+are|\s+was|\s+were)\s+(?:(?:the|a|an)\s+)?(?<topic>.+?)[\s?.!]*$/i;
/** A topic this long is a description to be matched, not a name to be defined. */
const LONGEST_TOPIC_WORDS = 4;
/**
 * Words that make the rest a question about the topic rather than the topic itself: "What is the name of...",
 * "What is located within...", "What is Kearney Boulevard named after?", "What is Jacksonville's hottest...".
 */
const NOT_A_NAME =
  /\b(?:of|in|on|for|to|by|with|at|from|about|after|that|which|who|whom|whose|where|when|why|how|used|called|named|known|located|meant|made|based)\b|'s\b|’s\b/i;

export function definitionAsked(message: string): DefinitionRequest | undefined {
  const asked = ASKED.exec(message.trim())?.groups;
  const topic = asked?.['topic']?.trim();
  if (topic === undefined || NOT_A_NAME.test(topic)) return undefined;
  // "Who is..." asks after a person by name; "who is the chair" is a question of fact.
  if (asked?.['asker']?.toLowerCase() === 'who' && !/^\p{Lu}/u.test(topic)) return undefined;
  if (topic.split(/\s+/).length > LONGEST_TOPIC_WORDS) return undefined;
  const terms = contentTerms(topic);
  return terms.length > 0 ? { topic, terms } : undefined;
}

/** Marks a name may carry before its verb: "Apache Tika(TM) detects...", "**Mammoth** is...". */
const NAME_MARKS = String.raw`(?:\*\*|__|\(TM\)|™|®|\s*\([^)]{1,40}\))*`;
/** The verbs a definition opens with after its subject ("Mammoth is designed to...")... */
const DEFINING_VERB = /^(?:is|are|was|were|refers|means|denotes|stands)$/;
/** ...or any other in its third person ("Apache Tika(TM) detects")... */
const THIRD_PERSON = /^[a-z]+[^s]s$/;
/** ...unless a verb follows it, which makes it a plural noun ("Huihui doctors staffed...", "COUNTER members are"). */
const FINITE_VERB = /^(?:is|are|was|were|has|have|had|[a-z]+ed)$/;

/**
 * A capitalised word qualifying a name before it: "Apache" in "Apache Tika(TM) detects..." for "Tika"; not one
 * capitalised only as a sentence's first ("These clades were found...").
 */
const QUALIFIER = /^(?<word>[\p{Lu}][\p{L}\p{N}.-]*)\s+/u;
/** A name is qualified by two such words at most ("Apache Software Foundation" is three). */
const MOST_QUALIFIERS = 2;

/**
 * Whether a sentence defines the topic: it opens with the topic as its subject (its words, after an article or a
 * name's qualifiers at most, and then a verb: "Mammoth is", "Apache Tika(TM) detects"), or names it with an
 * apposition ("Welcome to BlogCFC, a ColdFusion based blogging application"). "COUNTER compliance is..." is about
 * compliance, not COUNTER.
 */
export function defines(definition: DefinitionRequest, sentence: string): boolean {
  const name = definition.topic
    .split(/\s+/)
    .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, String.raw`\$&`))
    .join(String.raw`[\s-]+`);
  if (new RegExp(String.raw`(?:^|\s)${name}${NAME_MARKS},\s+(?:a|an|the)\s`, 'i').test(sentence)) return true;
  const subject = new RegExp(
    String.raw`^(?:\*\*|__)?(?:(?:the|a|an)\s+)?(?:\*\*|__)?${name}${NAME_MARKS},?\s+(?<verb>\S+)(?:\s+(?<after>\S+))?`,
    'i',
  );
  let opening = sentence.trim();
  for (let qualifiers = 0; qualifiers <= MOST_QUALIFIERS; qualifiers++) {
    const following = subject.exec(opening)?.groups;
    const verb = following?.['verb'];
    if (verb !== undefined)
      return (
        DEFINING_VERB.test(verb) || (THIRD_PERSON.test(verb) && !FINITE_VERB.test(following?.['after'] ?? ''))
      );
    const qualifier = QUALIFIER.exec(opening)?.groups?.['word'];
    if (qualifier === undefined || isStopWord(qualifier.toLowerCase())) return false;
    opening = opening.replace(QUALIFIER, '');
  }
  return false;
}

/** Whether a text (a source's opening) has a sentence defining the topic. */
export function definedIn(definition: DefinitionRequest, text: string): boolean {
  return sentences(text).some((sentence) => defines(definition, sentence));
}
