/**
 * The kind of thing a question asks for (a date, an amount of something, a number, how often, a name, a reason),
 * and finding something of that kind in a sentence: one reading for the retriever's reranker and the offline
 * responder alike.
 */
import type { DateExtent } from './dates.ts';
import { webAddresses, withoutWebAddresses } from './web-address.ts';
import { isStopWord, term, words } from './words.ts';

export type AnswerKind =
  | 'date'
  | 'measure'
  | 'number'
  | 'frequency'
  | 'person'
  | 'place'
  | 'reason'
  | 'other';

/**
 * What a question's wh-phrase asks for; "what" and "which" name it by the noun they take ("which river"). 'person'
 * is any proper name: of a team, a company, a language ("FORTRAN" for "What language are the subroutines written
 * in?"). Of two kinds found at the same place, the first listed wins: "how much does it weigh" is a measure, not a
 * number.
 */
const ASKS: readonly (readonly [AnswerKind, RegExp])[] = [
  ['frequency', /\bhow (?:often|frequently)\b|\b(?:what|which|at what) (?:frequency|interval)\b/],
  [
    'date',
    /\b(?:when|how far back|(?:what|which) (?:year|date|day|month|century|decade|time|period|era|season))\b/,
  ],
  [
    'measure',
    /\bhow (?:long|far|large|big|tall|high|fast|heavy|deep|wide|thick)\b|\bhow much (?:[\w-]+ ){1,5}weigh|\b(?:what|which) (?:size|height|length|width|depth|weight|speed|distance|diameter)\b/,
  ],
  [
    'number',
    /\bhow (?:many|much|old)\b|\b(?:what|which) (?:percentage|percent|number|amount|proportion|price|cost|population|rate)\b/,
  ],
  [
    'person',
    /\b(?:who|whom|whose)\b|\b(?:what|which) (?:\w+ )?(?:university|company|organi[sz]ation|team|school|college|agency|firm|publisher|person|man|woman|author|character|president|king|queen|emperor|leader|player|coach|scientist|artist|composer|architect|family|dynasty|group|band|party|newspaper|network|club)\b|\b(?:what|which) languages? (?:is|are|was|were|do|does|did|has|have|had)\b/,
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
  if (first?.kind === 'date' && joinsClause(text, first.at)) return 'other';
  return first?.kind ?? 'other';
}

/**
 * Whether the "when" at `at` joins a clause to a question asking something else: "What happens to italic text when
 * Mammoth converts a document?". Not after "and", "or" or a comma, which ask it as a second question ("What is new
 * and when was it released?"), nor after a sentence asking something else ("I see what you mean. When did it
 * open?"), nor when the clause asks for a time ("What was the date when the bridge opened?").
 */
function joinsClause(text: string, at: number): boolean {
  if (!text.startsWith('when', at)) return false;
  const before = text.slice(0, at);
  if (/(?:\band|\bor|,)\s*$/.test(before)) return false;
  const clause = before.slice(Math.max(...['.', '?', '!', ';'].map((stop) => before.lastIndexOf(stop))) + 1);
  return ASKS_OTHERWISE.test(clause) && !TIME_NOUN.test(clause);
}

/** The wh-words asking for something "when" may qualify: "who" and "where" already name the kind asked for. */
const ASKS_OTHERWISE = /\b(?:what|which|how|why)\b/;
const TIME_NOUN = /\b(?:date|time|day|year|month|century|decade|period|era|season)s?\b/;

/**
 * "How far back do its records go?", "how recent is it?": a question about how far a document's dates reach, which
 * its oldest (or newest) date answers, and no sentence matches by its words. "When was the earliest ...", "the most
 * recent ...", "since when" are not read so: in SQuAD they ask about one event of the text (8 questions, 5 answered
 * by their sentence and 1 by the document's oldest date). Nor is "how far back from the shore", a distance.
 */
export function dateExtentAsked(question: string): DateExtent | undefined {
  const text = question.toLowerCase();
  if (/\bhow far back\b(?! (?:from|behind)\b)/.test(text)) return 'earliest';
  if (/\bhow (?:recent|up to date)\b/.test(text)) return 'latest';
  return undefined;
}

const month =
  '(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan\\.|Feb\\.|Aug\\.|Sept?\\.|Oct\\.|Nov\\.|Dec\\.)';
const datePatterns = [
  new RegExp(`\\b${month} \\d{1,2}(?:st|nd|rd|th)?,? \\d{3,4}\\b`, 'g'),
  new RegExp(`\\b\\d{1,2} ${month},? \\d{3,4}\\b`, 'g'),
  new RegExp(`\\b${month},? \\d{3,4}\\b`, 'g'),
  /\b\d{4}-\d{2}-\d{2}\b/g,
  /\b\d{1,2}\/\d{1,2}\/(?:\d{4}|\d{2})\b/g,
  /\b\d{1,2}(?:st|nd|rd|th) century(?: BC| AD| BCE| CE)?\b/gi,
  /\b(?:1[0-9]|20)\d0s\b/g,
  /\b(?:AD |BC )?(?:1[0-9]\d{2}|20\d{2}|[1-9]\d{2})(?: BC| AD| BCE| CE)?\b/g,
];
const numberWords =
  'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|dozen';
/** Money's sign, a number's digits (with thousands' commas and decimals), the words that scale an amount. */
const CURRENCY = '(?:\\$|£|€|US\\$)';
const DIGITS = '\\d[\\d,]*(?:\\.\\d+)?';
const LARGE = 'million|billion|trillion|thousand';
/** A number in words: "twenty-one", "three hundred". */
const inWords = (first: string) => `${first}(?:[- ](?:${numberWords}))*`;
const numberPattern = new RegExp(
  `${CURRENCY}?\\b(?:${DIGITS}|${inWords(`(?:${numberWords})`)})\\b(?:\\s?(?:%|percent|per cent|${LARGE}|hundred))?`,
  'gi',
);
const count = `(?:\\d+|a few|several|other|${numberWords})`;
const span =
  '(?:second|minute|hour|day|night|week|fortnight|month|quarter|term|semester|season|year|decade|century)s?';
/**
 * A unit written onto its number, as technical text does: "30s", "5ms", "256MB", "2GiB", "10min", "5km". In its own
 * case ("5G" is no weight), and not a decade or an age ("the 1990s", "in her 20s", "the '80s").
 */
const GLUED_UNIT =
  '(?:(?<!\\d{4})s|ms|µs|ns|sec|min|h|hrs?|[KMGT]i?B|px|km|cm|mm|m|kg|g|lbs?|mph|kph|[kMG]?Hz|[kM]?W)';
const gluedAmount = new RegExp(
  `(?<!\\b(?:the|her|his|their|its|my|our|your|early|late|mid)[\\s-])(?<![#\\d,.'’])\\b${DIGITS}${GLUED_UNIT}\\b`,
  'gu',
);
/**
 * An amount of something: digits and the word they count ("240 μm", "5 lbs", "50 m.p.h.", "20,000 men"), or money.
 * Not a bare number, nor a numbered thing ("Team #6 built it"), nor "one" of something ("from one another"):
 * neither says a size.
 */
const measurePattern = new RegExp(
  `${CURRENCY}${DIGITS}(?:\\s?(?:${LARGE}))?|(?<![#\\d,.])\\b(?:${DIGITS}|${inWords(`(?!one\\b)(?:${numberWords})`)})(?:\\s?(?:${LARGE}|hundred))?(?:\\s|-)(\\p{L}+(?:[./]\\p{L}+)*)`,
  'giu',
);
/** "monthly", "every 3 months", "twice a year", "three times": how often, which a bare number is not. */
const frequencyPattern = new RegExp(
  `\\b(?:hourly|nightly|daily|weekly|fortnightly|monthly|quarterly|annually|yearly|biweekly|bimonthly|biannually|semi-?annually|every (?:${count} )?${span}|(?:once|twice|thrice|${count} times)(?: (?:a|an|per|each|every) ${span})?|(?:per|each|a) (?:${span}|annum))\\b`,
  'gi',
);
/** A number right after a label ("Sleeps: 10", "Bedrooms: 3"): the value of the label's own word. */
const LABEL_BEFORE = /([\p{L}]+)\s*[:=]\s*$/u;
const REASON =
  /\b(?:because|due to|since|so that|in order to|as a result|caused by|owing to|thanks to|to avoid|to prevent|led to|reason)\b/i;
/** Where a thing is, without a name: "on a tree", "into the meadow". */
const LOCATIVE =
  /\b(?:in|into|on|at|under|near|behind|beside|inside|outside|above|below|beneath|across|along) (?:a|an|the|her|his|their|its|my|our|your|this|that) \p{Ll}+/gu;
const properNamePattern =
  /\b\p{Lu}[\p{L}'’.-]*(?:\s+(?:(?:of|de|da|di|van|von|der|the|and|la|le|du|al|bin)\s+)?\p{Lu}[\p{L}'’.-]*)*/gu;

/**
 * The thing of the kind asked for, found in a sentence: a date, a number, or a proper name the question does not
 * already hold (`known`: the question's terms, as `term` gives them; `names`: the terms of the names it uses, as
 * `questionNames` gives them). Undefined when the sentence holds nothing of the kind, and always for 'other'.
 */
export function answerOfKind(
  sentence: string,
  kind: AnswerKind,
  known: Set<string>,
  names: ReadonlySet<string> = NO_NAMES,
): string | undefined {
  const read = withoutLabelNumbers(sentence);
  const isNew = (text: string): boolean =>
    words(text).some((word) => !isStopWord(word) && !known.has(term(word)));
  const firstNew = (patterns: RegExp[]): string | undefined => {
    for (const pattern of patterns) {
      for (const match of read.matchAll(pattern)) if (isNew(match[0])) return match[0].trim();
    }
    return undefined;
  };
  if (kind === 'date') return firstNew(datePatterns);
  if (kind === 'number') return labelledNumber(read, known) ?? firstNew([numberPattern]);
  if (kind === 'measure') return labelledNumber(read, known) ?? measured(read, isNew);
  if (kind === 'frequency') return firstNew([frequencyPattern]);
  if (kind === 'reason') return REASON.exec(read)?.[0];
  if (kind !== 'person' && kind !== 'place') return undefined;
  // A name ending in a name the question uses is its subject ("Little Bo" for "where did Bo Peep ...", "Denver
  // Broncos" for "who did the Broncos defeat?"), not its answer; one adding to it may be ("Super Bowl XLVII").
  const isNewName = (text: string): boolean => isNew(text) && !names.has(term(words(text).at(-1) ?? ''));
  // A web address's capitalised parts are no names ("https://github.com/Apache/tika").
  const name = properName(withoutWebAddresses(read), isNewName);
  if (kind === 'person') return name;
  // Where a thing is on the web: "Where can JETNET be downloaded from?" is answered by "www.thep.lu.se/...". Before a
  // locative: "get it from https://example.org/manual in the usual way" says where by its address.
  return name ?? webAddresses(read).find(isNew) ?? firstNew([LOCATIVE]);
}

const NO_NAMES: ReadonlySet<string> = new Set();

/**
 * What numbers a thing rather than counts it: a paper's references ("[7]", "[4, 5, 6]"), a JSON leaf's list place
 * (`quotes[3].text:`), both numbers of at most three digits in brackets ("[2019]" may be a year), and the numbers of
 * figures, tables, sections and equations ("Fig. 1").
 */
const LABEL_NUMBER =
  /\[\d{1,3}(?:\s*[,–-]\s*\d{1,3})*\]|\b(?:Fig(?:ure)?s?\.?|Tables?|Sections?|Eq(?:uation)?s?\.?)\s*\(?\d+[a-z]?\)?/g;

/** The sentence with its labelling numbers (`LABEL_NUMBER`) masked, so that no answer is found in them. */
function withoutLabelNumbers(sentence: string): string {
  return sentence.replace(LABEL_NUMBER, (label) => label.replace(/\d/g, '#'));
}

/** The terms of the names a question uses: its capitalised words, but for those opening a sentence. */
export function questionNames(question: string): Set<string> {
  const names = new Set<string>();
  for (const match of question.matchAll(/\p{Lu}[\p{L}\p{M}'’-]*/gu)) {
    if (/^[^\p{L}\p{N}]*$|[.!?]["”’)\]]*\s*$/u.test(question.slice(0, match.index))) continue;
    // words() parts a possessive's "s" from its name.
    for (const word of words(match[0])) if (word.length > 1 && !isStopWord(word)) names.add(term(word));
  }
  return names;
}

/**
 * How far before a number its label is looked for: further than any label word and the ": " after it, and a bound
 * on the scan, which read all the text before each number (time quadratic in a run of numbers: 0.44 s at 40,000
 * characters).
 */
const LABEL_REACH = 80;

/** The first number labelled by a word of the question ("how many can sleep": "Sleeps: 10", not "ID#1135"). */
function labelledNumber(sentence: string, known: Set<string>): string | undefined {
  for (const match of sentence.matchAll(numberPattern)) {
    const label = LABEL_BEFORE.exec(sentence.slice(Math.max(0, match.index - LABEL_REACH), match.index))?.[1];
    if (label === undefined) continue;
    const [word] = words(label);
    if (word !== undefined && !isStopWord(word) && known.has(term(word))) return match[0].trim();
  }
  return undefined;
}

/** The first amount of something in the sentence the question does not hold (`measurePattern`, `gluedAmount`). */
function measured(sentence: string, isNew: (text: string) => boolean): string | undefined {
  const amounts = [...sentence.matchAll(measurePattern), ...sentence.matchAll(gluedAmount)];
  for (const match of amounts.sort((left, right) => left.index - right.index)) {
    const counted = match[1];
    if (counted !== undefined && isStopWord(counted.toLowerCase())) continue;
    if (isNew(match[0])) return match[0].trim();
  }
  return undefined;
}

function properName(sentence: string, isNew: (text: string) => boolean): string | undefined {
  for (const match of sentence.matchAll(properNamePattern)) {
    // A capital that only starts the sentence is no name ("The", "However").
    const text = match[0].replace(
      /^(?:The|A|An|In|On|At|By|For|However|After|Before|During|This|These|It)\s+/,
      '',
    );
    if (match.index === 0 && !/\s/.test(text) && isStopWord(text.toLowerCase())) continue;
    if (isNew(text)) return text.replace(/[.,'’]+$/, '');
  }
  return undefined;
}
