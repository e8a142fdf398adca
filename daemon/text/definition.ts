/**
 * Questions asking what something is ("What is Mammoth?", "What's Apache Tika?", "What are Harvard sentences?").
 * Their words are the topic's alone, so the sentences matching them best are any that name it often (a badge line,
 * a code sample); what answers them is the sentence with the topic as its subject ("Mammoth is designed to...").
 */
import { sentences } from './sentences.ts';
import { contentTerms, isStopWord } from './words.ts';

export interface DefinitionRequest {
  /** The words naming what is asked about, without a leading article ("Hauptlied" for "What is a Hauptlied?"). */
  topic: string;
  /** The topic's content stems. */
  terms: string[];
}

const ASKED = /^what(?:'s|’s|\s+is|\s+are)\s+(?:(?:the|a|an)\s+)?(?<topic>.+?)[\s?.!]*$/i;
/** A topic this long is a description to be matched, not a name to be defined. */
const LONGEST_TOPIC_WORDS = 4;
/**
 * Words that make the rest a question about the topic rather than the topic itself: "What is the name of...",
 * "What is located within...", "What is Kearney Boulevard named after?", "What is Jacksonville's hottest...".
 */
const NOT_A_NAME =
  /\b(?:of|in|on|for|to|by|with|at|from|about|after|that|which|who|whom|whose|where|when|why|how|used|called|named|known|located|meant|made|based)\b|'s\b|’s\b/i;

export function definitionAsked(message: string): DefinitionRequest | undefined {
  const topic = ASKED.exec(message.trim())?.groups?.['topic']?.trim();
  if (topic === undefined || NOT_A_NAME.test(topic)) return undefined;
  if (topic.split(/\s+/).length > LONGEST_TOPIC_WORDS) return undefined;
  const terms = contentTerms(topic);
  return terms.length > 0 ? { topic, terms } : undefined;
}

/** Marks a name may carry before its verb: "Apache Tika(TM) detects...", "**Mammoth** is...". */
const NAME_MARKS = String.raw`(?:\*\*|__|\(TM\)|™|®|\s*\([^)]{1,40}\))*`;
/** Verbs a definition opens with after its subject: a form of "to be", or any other in its third person. */
const DEFINING_VERB = /^(?:is|are|was|were|refers|means|denotes|stands|[a-z]+[^s]s)$/;

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
    String.raw`^(?:\*\*|__)?(?:(?:the|a|an)\s+)?(?:\*\*|__)?${name}${NAME_MARKS},?\s+(?<verb>\S+)`,
    'i',
  );
  let opening = sentence.trim();
  for (let qualifiers = 0; qualifiers <= MOST_QUALIFIERS; qualifiers++) {
    const verb = subject.exec(opening)?.groups?.['verb'];
    if (verb !== undefined) return DEFINING_VERB.test(verb);
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
