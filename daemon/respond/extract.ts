import { sentences } from '../text/sentences.ts';
import { isStopWord as isFunctionWord, term, words } from '../text/words.ts';
import { type SentenceScorer, sentenceScore } from './sentence-model.ts';
import { SENTENCE_WEIGHTS } from './sentence-weights.ts';
import type { ContextPassage } from './types.ts';

export type AnswerKind = 'date' | 'number' | 'person' | 'place' | 'reason' | 'other';

/** Words a question frames its ask with ("what is it called", "which kind"), which no answer needs to contain. */
const QUESTION_FRAME = new Set(
  'whose s t name named called many much kind type one ones according'.split(' '),
);

export function isStopWord(word: string): boolean {
  return isFunctionWord(word) || QUESTION_FRAME.has(word);
}

function contentStems(text: string): string[] {
  return words(text)
    .filter((word) => !isStopWord(word))
    .map(term);
}

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

/** One whole sentence of a passage that could answer. */
export interface Candidate {
  passage: ContextPassage;
  sentence: string;
  /** Position among the passage's candidate sentences. */
  position: number;
  stems: Set<string>;
  sequence: string[];
  /** What the sentence leans on: the sentence before it and the title it sits under. */
  previous: Set<string>;
  next: Set<string>;
  /** The passage's next sentence or line, however short: the value after a `label:`. */
  following?: string;
}

/** A candidate sentence with its score: the sentence model's logit, and its share of the question's weight. */
export interface Finding {
  candidate: Candidate;
  score: number;
  coverage: number;
}

/**
 * The whole sentences of the passages, each once: chunks overlap, and a sentence cut at a chunk's edge reads
 * badly and is whole in the neighbouring chunk. Markdown headings name a topic and answer nothing, but what a
 * passage's sentences are about: with the sentence before, they are what a sentence leans on.
 */
export function candidateSentences(passages: ContextPassage[]): Candidate[] {
  const seen = new Set<string>();
  const candidates: Candidate[] = [];
  for (const passage of passages) {
    const all = sentences(passage.text);
    const title = passageTitle(all);
    const titleStems = title === undefined ? [] : contentStems(title);
    const split = wholeSentences(all.filter((sentence) => !HEADING.test(sentence)));
    const stems = split.map((sentence) => contentStems(sentence));
    let position = 0;
    split.forEach((sentence, index) => {
      const key = sentence.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ');
      if (seen.has(key) || words(sentence).length < 3) return;
      seen.add(key);
      const following = split[index + 1];
      candidates.push({
        passage,
        sentence,
        position: position++,
        stems: new Set(stems[index]),
        sequence: stems[index]!,
        previous: new Set([...(stems[index - 1] ?? []), ...(sentence === title ? [] : titleStems)]),
        next: new Set(stems[index + 1] ?? []),
        ...(following === undefined ? {} : { following }),
      });
    });
  }
  return candidates;
}

const HEADING = /^#{1,6}\s/;
/** A first line this short, without a final stop, titles what follows (a slide's title, a form's heading). */
const TITLE_WORDS = 12;

function passageTitle(split: string[]): string | undefined {
  const heading = split.find((sentence) => HEADING.test(sentence));
  if (heading) return heading.replace(HEADING, '');
  const first = split[0];
  if (first === undefined || split.length < 2 || /[.!?]["”’)\]]?$/.test(first)) return undefined;
  return words(first).length <= TITLE_WORDS ? first : undefined;
}

/**
 * Without a chunk's first sentence when it starts mid-sentence, and its last when that runs on without an end:
 * long prose cut at the edge. A short last line (a slide's bullet, a form's value) is whole as it is.
 */
function wholeSentences(split: string[]): string[] {
  if (split.length <= 1) return split;
  const first = split[0] ?? '';
  const start = /^[\p{Ll},;:)\]]/u.test(first) && !RECORD.test(first) ? 1 : 0;
  const last = split.at(-1) ?? '';
  const cut = !/[.!?:]["”’)\]]?$/.test(last) && words(last).length > CUT_SENTENCE_WORDS;
  return split.slice(start, Math.max(start, cut ? split.length - 1 : split.length));
}

/** A `name: value` line (a JSON leaf, a header) starts lower-case and whole. */
const RECORD = /^[^\s:][^:]{0,80}: \S/;

/** A last line longer than this without a final stop is taken for a sentence cut at the chunk's edge. */
const CUT_SENTENCE_WORDS = 25;

/** The sentence model's inputs, in the order of `SENTENCE_WEIGHTS.features`. */
export const SENTENCE_FEATURES = [
  'coverage',
  'coverageSquared',
  'previousCoverage',
  'nextCoverage',
  'pronounPrevious',
  'density',
  'compactness',
  'novelty',
  'dateFound',
  'numberFound',
  'nameFound',
  'passageScore',
  'passageRank',
  'short',
  'long',
  'phrasesKept',
  'focusFound',
  'otherNameFound',
  'otherNumberFound',
  'answerNearTerms',
  'opensPassage',
  'coverageByRank',
  'variantCoverage',
  'rarestMissing',
  'sharpCoverage',
  'reasonFound',
] as const;

/**
 * Every candidate sentence, best first. The score is the sentence model (sentence-model.ts) over what makes a
 * sentence the answer: the question's weight it holds (alone and with its neighbours), phrases kept, holding the
 * kind of thing asked for near the question's words, adding something the question does not say, and the
 * passage's own rank. Its parameters come from bench/train-responder.ts.
 */
export function rankSentences(
  question: Question,
  passages: ContextPassage[],
  scorer: SentenceScorer = SENTENCE_WEIGHTS,
): Finding[] {
  return featureRows(question, passages)
    .map(({ candidate, features }) => ({
      candidate,
      score: sentenceScore(scorer, features),
      coverage: features[0]!,
    }))
    .sort((left, right) => right.score - left.score);
}

/**
 * Each candidate sentence with its features (`SENTENCE_FEATURES`). Terms are weighted by how rare they are among
 * the candidates, so the words that tell sentences apart count most.
 */
export function featureRows(
  question: Question,
  passages: ContextPassage[],
): { candidate: Candidate; features: number[] }[] {
  const candidates = candidateSentences(passages);
  if (candidates.length === 0 || question.terms.size === 0) return [];
  const weight = rarity(question, candidates);
  const termWeights = [...question.terms.keys()].map(weight);
  const total = termWeights.reduce((sum, termWeight) => sum + termWeight, 0);
  if (total === 0) return [];
  const heaviest = Math.max(...termWeights);
  const sharpTotal = termWeights.reduce((sum, termWeight) => sum + termWeight ** 2, 0);
  return candidates.map((candidate) => ({
    candidate,
    features: sentenceFeatures(question, candidate, { weight, total, heaviest, sharpTotal }),
  }));
}

interface Weighing {
  weight: (term: string) => number;
  total: number;
  heaviest: number;
  sharpTotal: number;
}

function sentenceFeatures(question: Question, candidate: Candidate, weighing: Weighing): number[] {
  const { weight, total } = weighing;
  let held = 0;
  let previous = 0;
  let next = 0;
  let variant = 0;
  let missing = 0;
  let sharpHeld = 0;
  for (const term of question.terms.keys()) {
    const termWeight = weight(term);
    if (candidate.stems.has(term)) {
      held += termWeight;
      sharpHeld += termWeight ** 2;
      continue;
    }
    if (candidate.previous.has(term)) previous += termWeight;
    else if (candidate.next.has(term)) next += termWeight;
    if (hasVariant(candidate, term)) variant += termWeight;
    else missing = Math.max(missing, termWeight);
  }
  const coverage = held / total;
  const answer =
    question.kind === 'other' ? undefined : answerOfKind(candidate.sentence, question.kind, question.known);
  const otherName =
    question.kind === 'other' ? answerOfKind(candidate.sentence, 'person', question.known) : undefined;
  const otherNumber =
    question.kind === 'other' ? answerOfKind(candidate.sentence, 'number', question.known) : undefined;
  const newStems = [...candidate.stems].filter((term) => !question.known.has(term)).length;
  const length = words(candidate.sentence).length;
  return [
    coverage,
    coverage * coverage,
    previous / total,
    next / total,
    PRONOUN_START.test(candidate.sentence) ? previous / total : 0,
    candidate.stems.size > 0 ? matchedStems(question, candidate) / candidate.stems.size : 0,
    compactness(question, candidate),
    candidate.stems.size > 0 ? newStems / candidate.stems.size : 0,
    answer !== undefined && question.kind === 'date' ? 1 : 0,
    answer !== undefined && question.kind === 'number' ? 1 : 0,
    answer !== undefined && (question.kind === 'person' || question.kind === 'place') ? 1 : 0,
    candidate.passage.score,
    1 / candidate.passage.number,
    length < 8 ? 1 : 0,
    length > 40 ? 1 : 0,
    phrasesKept(question, candidate),
    question.focus !== undefined && candidate.stems.has(question.focus) ? 1 : 0,
    otherName === undefined ? 0 : 1,
    otherNumber === undefined ? 0 : 1,
    nearness(question, candidate.sentence, answer ?? otherName ?? otherNumber),
    candidate.position === 0 ? 1 : 0,
    coverage / candidate.passage.number,
    variant / total,
    missing / weighing.heaviest,
    sharpHeld / weighing.sharpTotal,
    answer !== undefined && question.kind === 'reason' ? 1 : 0,
  ];
}

/** Share of the question's neighbouring content words that stay neighbours (within a word or two) in the sentence. */
function phrasesKept(question: Question, candidate: Candidate): number {
  const pairs = question.sequence.length - 1;
  if (pairs < 1) return 0;
  let kept = 0;
  for (let index = 0; index < pairs; index++) {
    const first = question.sequence[index]!;
    const second = question.sequence[index + 1]!;
    if (
      candidate.sequence.some(
        (term, at) => term === first && candidate.sequence.slice(at + 1, at + 4).includes(second),
      )
    )
      kept++;
  }
  return kept / pairs;
}

/** A question's word in another form than the light stemmer meets ("interceptions", "intercepted"): a shared beginning. */
const VARIANT_PREFIX = 5;

function hasVariant(candidate: Candidate, term: string): boolean {
  if (term.length < VARIANT_PREFIX + 1) return false;
  const prefix = term.slice(0, VARIANT_PREFIX);
  for (const stem of candidate.stems) if (stem.startsWith(prefix)) return true;
  return false;
}

/** How close the answer found sits to the question's words in the sentence: 1 beside one, less by the word. */
function nearness(question: Question, sentence: string, answer: string | undefined): number {
  if (answer === undefined) return 0;
  const at = sentence.indexOf(answer);
  if (at < 0) return 0;
  const before = words(sentence.slice(0, at)).length;
  const after = before + words(answer).length;
  let closest = Number.POSITIVE_INFINITY;
  words(sentence).forEach((word, index) => {
    if (!question.terms.has(term(word))) return;
    const distance =
      index < before ? before - index : index >= after ? index - after + 1 : Number.POSITIVE_INFINITY;
    closest = Math.min(closest, distance);
  });
  return Number.isFinite(closest) ? 1 / closest : 0;
}

/** A sentence that opens by pointing back takes its subject from the sentence before. */
const PRONOUN_START = /^(?:It|He|She|They|This|These|Those|His|Her|Its|Their|There|Such)\b/;

function matchedStems(question: Question, candidate: Candidate): number {
  let matched = 0;
  for (const term of candidate.stems) if (question.terms.has(term)) matched++;
  return matched;
}

/** How closely the question's terms sit together in the sentence: matched terms over the span they cover. */
function compactness(question: Question, candidate: Candidate): number {
  let first = -1;
  let last = -1;
  let matched = 0;
  candidate.sequence.forEach((term, index) => {
    if (!question.terms.has(term)) return;
    if (first < 0) first = index;
    last = index;
    matched++;
  });
  return matched < 2 ? 0 : matched / (last - first + 1);
}

function rarity(question: Question, candidates: Candidate[]): (term: string) => number {
  const weights = new Map<string, number>();
  for (const [term, importance] of question.terms) {
    const frequency = candidates.filter((candidate) => candidate.stems.has(term)).length;
    weights.set(term, importance * Math.log(1 + (candidates.length + 1) / (frequency + 0.5)));
  }
  return (term) => weights.get(term) ?? 0;
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
const numberPattern = new RegExp(
  `(?:\\$|£|€|US\\$)?\\b(?:\\d[\\d,]*(?:\\.\\d+)?|(?:${numberWords})(?:[- ](?:${numberWords}))*)\\b(?:\\s?(?:%|percent|per cent|million|billion|trillion|thousand|hundred))?`,
  'gi',
);
const REASON =
  /\b(?:because|due to|since|so that|in order to|as a result|caused by|owing to|thanks to|to avoid|to prevent|led to|reason)\b/i;
const properNamePattern =
  /\b\p{Lu}[\p{L}'’.-]*(?:\s+(?:(?:of|de|da|di|van|von|der|the|and|la|le|du|al|bin)\s+)?\p{Lu}[\p{L}'’.-]*)*/gu;

/**
 * The kind of thing the question asks for, found in a sentence: a date, a number, or a proper name the
 * question does not already contain. Undefined when the sentence holds nothing of the kind.
 */
export function answerOfKind(sentence: string, kind: AnswerKind, known: Set<string>): string | undefined {
  const isNew = (text: string): boolean =>
    words(text).some((word) => !isStopWord(word) && !known.has(term(word)));
  const firstNew = (patterns: RegExp[]): string | undefined => {
    for (const pattern of patterns) {
      for (const match of sentence.matchAll(pattern)) if (isNew(match[0])) return match[0].trim();
    }
    return undefined;
  };
  if (kind === 'date') return firstNew(datePatterns);
  if (kind === 'number') return firstNew([numberPattern]);
  if (kind === 'person' || kind === 'place') return properName(sentence, isNew);
  if (kind === 'reason') return REASON.exec(sentence)?.[0];
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
