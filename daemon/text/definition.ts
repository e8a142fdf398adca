/**
 * Questions asking what something or who someone is ("What is Mammoth?", "What's Apache Tika?", "What are Harvard
 * sentences?", "Who is Chris Rudolph?"), or what something does ("What does the pingurls setting do?"). Their words
 * are the topic's alone, so the sentences matching them best are any that name it often (a badge line, a code
 * sample, a quote signed with the name); what answers them is the sentence with the topic as its subject ("Mammoth
 * is designed to...", "The pingurls setting lets you...") or in apposition ("Chris Rudolph, the marketing manager
 * for Stevens Pass, ..."), or a menu's or a list's line labelled with it ("Add Entry: Takes you to...").
 */
import { LIST_ITEM } from './sentences.ts';
import { contentTerms, isStopWord } from './words.ts';

export interface DefinitionRequest {
  /** The words naming what is asked about, without a leading article ("Hauptlied" for "What is a Hauptlied?"). */
  topic: string;
  /** The topic's content stems. */
  terms: string[];
  /** Whether the question asks what the topic is, or what it does ("What does the pingurls setting do?"). */
  asks: 'is' | 'does';
  /**
   * For a question what something does, the kind of thing it is, which a sentence may leave out: "link" in "What
   * does the Add Entry link do?", answered by "Add Entry: Takes you straight to the form...".
   */
  role?: string;
}

/** Such a question is short: a longer message is not read (the patterns below would cost time on it). */
const LONGEST_QUESTION = 200;
const ARTICLE = String.raw`(?:the|a|an)\s+`;
const ASKED = new RegExp(
  String.raw`^(?<asker>what|who)(?:'s|’s|\s+is|\s+are|\s+was|\s+were)\s+(?:${ARTICLE})?(?<topic>.+?)[\s?.!]*$`,
  'i',
);
/** A topic this long is a description to be matched, not a name to be defined. */
const LONGEST_TOPIC_WORDS = 4;
const POSSESSIVE = String.raw`['’]s\b`;
/**
 * Words that make the rest a question about the topic rather than the topic itself: "What is the name of...",
 * "What is located within...", "What is Kearney Boulevard named after?", "What is Jacksonville's hottest...".
 */
const NOT_A_NAME = new RegExp(
  String.raw`\b(?:of|in|on|for|to|by|with|at|from|about|after|that|which|who|whom|whose|where|when|why|how|used|called|named|known|located|meant|made|based)\b|${POSSESSIVE}`,
  'i',
);
const QUOTES = /^["'“‘]+|["'”’]+$/g;

/** "What does the Add Entry link in the administrator do?": the topic, and maybe where it is. */
const DOES_ASKED = new RegExp(
  String.raw`^what\s+(?:does|do)\s+(?:${ARTICLE})?(?<topic>.+?)\s+do[\s?.!]*$`,
  'i',
);
/**
 * Where the topic is, which it ends before: a preposition and what follows it ("in the BlogCFC administrator", "in
 * git"), unless the preposition is a verb's particle, part of the topic ("What does the log in button do?").
 */
const PLACE =
  /(?<!\b(?:log|logged|sign|signed|check|checked|opt|plug|turn|switch))\s+(?:in|on|of|from|within|under)\s+.*$/i;

/** The kinds of thing a question what something does may name after it, and a sentence saying so may leave out. */
const ROLE =
  /\s+(?<role>setting|option|flag|switch|link|button|menu|tab|command|parameter|property|field|function|method|key|feature)$/i;

export function definitionAsked(message: string): DefinitionRequest | undefined {
  if (message.length > LONGEST_QUESTION) return undefined;
  return doesAsked(message.trim()) ?? isAsked(message.trim());
}

function isAsked(message: string): DefinitionRequest | undefined {
  const asked = ASKED.exec(message)?.groups;
  const topic = asked?.['topic']?.trim().replace(QUOTES, '');
  // "Who is..." asks after a person by name; "who is the chair" is a question of fact.
  if (!topic || (asked?.['asker']?.toLowerCase() === 'who' && !isName(topic))) return undefined;
  const named = topicOf(topic);
  return named && { ...named, asks: 'is' };
}

function doesAsked(message: string): DefinitionRequest | undefined {
  const topic = DOES_ASKED.exec(message)?.groups?.['topic']?.replace(PLACE, '').trim();
  if (!topic) return undefined;
  const role = ROLE.exec(topic)?.groups?.['role'];
  const named = topicOf((role ? topic.replace(ROLE, '') : topic).replace(QUOTES, ''));
  return named && { ...named, asks: 'does', ...(role ? { role } : {}) };
}

function topicOf(topic: string): { topic: string; terms: string[] } | undefined {
  if (NOT_A_NAME.test(topic) || topic.split(/\s+/).length > LONGEST_TOPIC_WORDS) return undefined;
  const terms = contentTerms(topic);
  return terms.length > 0 ? { topic, terms } : undefined;
}

/**
 * Marks a name may carry before its verb, a few at most: "Apache Tika(TM) detects...", "**Mammoth** is...",
 * "Quaybook (the register) keeps...". One parenthesis takes "(TM)" too: two that both match it would make a run of
 * them cost exponential time.
 */
const NAME_MARKS = String.raw`(?:\*\*|__|™|®|\s*\([^)]{1,40}\)){0,3}`;
const EMPHASIS = String.raw`(?:\*\*|__)?`;
/** The verbs a definition opens with after its subject ("the population is 3,000", "Mammoth is designed to")... */
const DEFINING_VERB = /^(?:is|are|was|were|refers|means|denotes|stands)$/;
/** ...or, after a name, any other in its third person ("Apache Tika(TM) detects")... */
const THIRD_PERSON = /^[a-z]+[^s]s$/;
const NOT_A_VERB = /^(?:its|this|thus|plus|versus|always|perhaps|news)$/;
/**
 * ...unless a verb follows it, which makes it a plural noun ("Huihui doctors staffed...", "COUNTER members are",
 * "COUNTER reports must be delivered").
 */
const FINITE_VERB =
  /^(?:is|are|was|were|has|have|had|do|does|did|can|could|may|might|must|shall|should|will|would|[a-z]+ed)$/;
/**
 * A capitalised word qualifying a name before it: "Apache" in "Apache Tika(TM) detects..." for "Tika"; not a word
 * capitalised only as a sentence's first ("These clades were found...", "Using Mammoth is easy").
 */
const QUALIFIER = /^(?<word>\p{Lu}[\p{L}\p{N}.-]*)\s+/u;
const NOT_A_QUALIFIER = /(?:ing|ed|ly)$/;
/** A name is qualified by two such words at most ("Apache Software Foundation" is three). */
const MOST_QUALIFIERS = 2;
/** Where an apposition may name the topic: opening the sentence, or after "Welcome to", "This is", "Meet"... */
const APPOSITION_LEAD = String.raw`(?:^|\b(?:to|is|was|by|meet)\s+)`;

/**
 * How a sentence defines the topic: as a sentence, which what follows it in its passage goes on with, or as a line
 * of a list or menu labelled with it, whose next lines are about other things.
 */
export type Defining = 'sentence' | 'line';

/**
 * A test of whether a sentence defines the topic: it opens with the topic as its subject (its words, after an
 * article or a name's qualifiers at most, and then a verb: "Mammoth is", "Apache Tika(TM) detects"), or names it in
 * apposition where a sentence introduces it ("Welcome to BlogCFC, a ColdFusion based blogging application"). A
 * topic the sentence does not write as a name ("the population") is defined only with a form of "to be": "The
 * population grows every year" says nothing of what it is. "COUNTER compliance is..." is about compliance. What
 * something does is said with any verb ("The pingurls setting lets you...") or after it as a label ("Add Entry:
 * Takes you to...").
 */
export function definitionTest(definition: DefinitionRequest): (sentence: string) => Defining | undefined {
  const words = definition.topic
    .split(/\s+/)
    .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, String.raw`\$&`))
    .join(String.raw`[\s-]+`);
  const { role } = definition;
  const does = definition.asks === 'does';
  const name = role ? String.raw`${words}(?:\s+${role})?` : words;
  const apposition = new RegExp(
    String.raw`${APPOSITION_LEAD}${EMPHASIS}(?:${ARTICLE})?${EMPHASIS}${name}${NAME_MARKS},\s+(?:the|a|an)\s`,
    'i',
  );
  const subject = new RegExp(
    String.raw`^${EMPHASIS}(?:${ARTICLE})?${EMPHASIS}(?<name>${name})${NAME_MARKS},?\s+(?<verb>\S+)(?:\s+(?<after>\S+))?`,
    'i',
  );
  // A label's text says what its entry does with a verb: "Add Entry: Takes you to...", not "harbourctl: 2.9.1".
  const label =
    does && new RegExp(String.raw`^${EMPHASIS}${name}${EMPHASIS}:\s+(?<verb>\S+)(?:\s+(?<after>\S+))?`, 'i');
  const opensDefinition = (named: boolean, verb: string, after: string): boolean =>
    DEFINING_VERB.test(verb) ||
    ((named || does) && THIRD_PERSON.test(verb) && !NOT_A_VERB.test(verb) && !FINITE_VERB.test(after));
  return (sentence) => {
    let opening = sentence.trim().replace(LIST_ITEM, '');
    const labelled = label ? label.exec(opening)?.groups : undefined;
    if (labelled && saysWhatItDoes(labelled['verb'] ?? '', labelled['after'] ?? '')) return 'line';
    if (apposition.test(opening)) return 'sentence';
    for (let qualifiers = 0; ; qualifiers++) {
      const following = subject.exec(opening)?.groups;
      if (following?.['verb'] !== undefined)
        return opensDefinition(
          isName(following['name'] ?? ''),
          following['verb'].toLowerCase(),
          (following['after'] ?? '').toLowerCase(),
        )
          ? 'sentence'
          : undefined;
      const qualifier = QUALIFIER.exec(opening)?.groups?.['word'];
      if (qualifiers === MOST_QUALIFIERS || qualifier === undefined || !qualifies(qualifier))
        return undefined;
      opening = opening.replace(QUALIFIER, '');
    }
  };
}

/**
 * Whether a menu line's text says what its entry does: it opens with a verb, in the third person ("Takes you to the
 * form"), as a participle ("Used to..."), or bare before its object ("Create a new entry", "Configure your blog");
 * not a value ("2.9.1") nor a look ("blue, top right").
 */
function saysWhatItDoes(first: string, second: string): boolean {
  const verb = first.toLowerCase();
  if (!/^[a-z]+$/.test(verb) || NOT_A_VERB.test(verb)) return false;
  return THIRD_PERSON.test(verb) || verb.endsWith('ed') || OBJECT_OPENING.test(second);
}

/** What an object opens with after a bare verb: "Create a new entry", "Configure your blog", "Browse all posts". */
const OBJECT_OPENING = /^(?:a|an|the|your|its|their|all|any|each|every|new|this|these|to)$/i;

function qualifies(word: string): boolean {
  const lower = word.toLowerCase();
  return !isStopWord(lower) && !NOT_A_QUALIFIER.test(lower);
}

/** A name is written with a capital ("Mammoth", "iPhone"); "population" is a word. */
function isName(topic: string): boolean {
  return /\p{Lu}/u.test(topic);
}
