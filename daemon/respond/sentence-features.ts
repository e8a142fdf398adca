/** What the sentence model reads of each candidate sentence: how it meets the question. */
import { type AnswerKind, answerOfKind } from '../text/answer-kind.ts';
import {
  type AskedWord,
  askedWords,
  nearness as nearnessInMeaning,
  saidOtherwise,
} from '../text/meaning-match.ts';
import { rarityAmong } from '../text/rarity.ts';
import { rowSimilarity, wordVectors } from '../text/word-vectors.ts';
import { isStopWord, term, words } from '../text/words.ts';
import { type Candidate, candidateSentences } from './candidates.ts';
import type { Question } from './question.ts';
import type { ContextPassage } from './types.ts';

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
  // The passage's rank and not the reranker's score for it: that score's scale moved with every refit of the
  // reranker, and with it the floor below which off-topic questions are turned away.
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
  'meaningCoverage',
  'focusMeaning',
  // The kind asked for, so the model can weigh the other features by it: a date is found in a short clause, a
  // reason in a long one.
  'asksDate',
  'asksNumber',
  'asksPerson',
  'asksPlace',
  'asksOther',
  'longestRun',
  'languageCoverage',
  // Computed last, from every sentence's features (`standing`).
  'coverageBehindBest',
  'passageScoreBehind',
] as const;

/** The kinds the `asks…` features name, in their order; how often counts as a number. */
const KIND_FEATURES: readonly AnswerKind[][] = [
  ['date'],
  ['number', 'frequency'],
  ['person'],
  ['place'],
  ['other'],
];

/**
 * Each candidate sentence with its features (`SENTENCE_FEATURES`). Terms are weighted by how rare they are among
 * the candidates, so the words that tell sentences apart count most.
 */
export function featureRows(
  question: Question,
  passages: ContextPassage[],
): { candidate: Candidate; features: number[] }[] {
  const candidates = candidateSentences(passages).filter((candidate) => competes(question, candidate));
  if (candidates.length === 0 || question.terms.size === 0) return [];
  const weight = rarity(question, candidates);
  const termWeights = [...question.terms.keys()].map(weight);
  const total = termWeights.reduce((sum, termWeight) => sum + termWeight, 0);
  if (total === 0) return [];
  const weighing: Weighing = {
    weight,
    total,
    heaviest: Math.max(...termWeights),
    sharpTotal: termWeights.reduce((sum, termWeight) => sum + termWeight ** 2, 0),
    asked: askedWords(question.text, weight),
    language: languageRarity(question.text),
    focusRow: question.focus === undefined ? undefined : wordVectors().rows.get(question.focus),
  };
  const rows = candidates.map((candidate) => ({
    candidate,
    features: sentenceFeatures(question, candidate, weighing),
  }));
  const bestCoverage = Math.max(...rows.map((row) => row.features[COVERAGE]!));
  const topPassageScore = Math.max(...passages.map((passage) => passage.score));
  for (const row of rows)
    row.features.push(
      ...standing(row.features[COVERAGE]!, bestCoverage, row.candidate.passage.score, topPassageScore),
    );
  return rows;
}

const COVERAGE = SENTENCE_FEATURES.indexOf('coverage');

/**
 * Where a sentence stands among the others: how far its coverage falls behind the best sentence's, and its
 * passage's score behind the first passage's (scaled so a typical gap is about 1).
 */
function standing(
  coverage: number,
  bestCoverage: number,
  passageScore: number,
  topPassageScore: number,
): number[] {
  return [coverage - bestCoverage, (passageScore - topPassageScore) * PASSAGE_SCORE_SCALE];
}
const PASSAGE_SCORE_SCALE = 10;

/**
 * A sentence of only the question's own words cannot say what a wh-question asks ("It was Elyse Saugstad." for
 * "What gear was Elyse Saugstad wearing?"). A heading competes only when it holds most of the question's own words
 * and the kind of thing asked for: then it is the answer ("## Release 4.0.0 - 8/18/2026" for "When was 4.0.0
 * released?"), else it only names a topic.
 */
function competes(question: Question, candidate: Candidate): boolean {
  if (question.open && [...candidate.stems].every((stem) => question.known.has(stem))) return false;
  if (!candidate.heading) return true;
  const asked = new Set(question.sequence);
  const held = [...asked].filter((term) => candidate.stems.has(term)).length;
  return (
    held * 2 > asked.size &&
    question.kind !== 'other' &&
    answerOfKind(candidate.sentence, question.kind, question.known, question.names) !== undefined
  );
}

interface Weighing {
  weight: (term: string) => number;
  total: number;
  heaviest: number;
  sharpTotal: number;
  /** The question's words with vectors, weighted as `weight` weighs their terms, to match words of like meaning. */
  asked: AskedWord[];
  /** The question's content terms weighted by their rarity in English, not among the candidates. */
  language: LanguageRarity;
  /** The vector row of the question's focus word ("which river"): an answer names a thing of that kind. */
  focusRow: number | undefined;
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
    question.kind === 'other'
      ? undefined
      : answerOfKind(candidate.sentence, question.kind, question.known, question.names);
  const otherName =
    question.kind === 'other'
      ? answerOfKind(candidate.sentence, 'person', question.known, question.names)
      : undefined;
  const otherNumber =
    question.kind === 'other' ? answerOfKind(candidate.sentence, 'number', question.known) : undefined;
  const newStems = [...candidate.stems].filter((term) => !question.known.has(term)).length;
  const sentenceWords = words(candidate.sentence);
  const length = sentenceWords.length;
  const otherwise = saidOtherwise(weighing.asked, nearnessInMeaning(weighing.asked, sentenceWords), (stem) =>
    candidate.stems.has(stem),
  );
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
    // How often is a number of times: the quantity asked for.
    answer !== undefined && (question.kind === 'number' || question.kind === 'frequency') ? 1 : 0,
    answer !== undefined && (question.kind === 'person' || question.kind === 'place') ? 1 : 0,
    1 / candidate.passage.number,
    length < 8 ? 1 : 0,
    length > 40 ? 1 : 0,
    phrasesKept(question, candidate),
    question.focus !== undefined && candidate.stems.has(term(question.focus)) ? 1 : 0,
    otherName === undefined ? 0 : 1,
    otherNumber === undefined ? 0 : 1,
    nearness(question, candidate.sentence, answer ?? otherName ?? otherNumber),
    candidate.position === 0 ? 1 : 0,
    coverage / candidate.passage.number,
    variant / total,
    missing / weighing.heaviest,
    sharpHeld / weighing.sharpTotal,
    answer !== undefined && question.kind === 'reason' ? 1 : 0,
    coverage + otherwise / total,
    weighing.focusRow === undefined ? 0 : focusMeaning(weighing.focusRow, sentenceWords, question.known),
    ...KIND_FEATURES.map((kinds) => (kinds.includes(question.kind) ? 1 : 0)),
    longestRun(question.text, sentenceWords),
    languageCoverage(weighing.language, candidate),
  ];
}

/**
 * How near the sentence's nearest new word comes in meaning to the question's focus word: "Danube" to "river",
 * "1848" hardly. A word the question already says is no answer to it.
 */
function focusMeaning(focusRow: number, sentenceWords: string[], known: Set<string>): number {
  const vectors = wordVectors();
  let nearest = 0;
  for (const word of sentenceWords) {
    if (isStopWord(word) || known.has(term(word))) continue;
    const row = vectors.rows.get(word);
    if (row !== undefined) nearest = Math.max(nearest, rowSimilarity(vectors, focusRow, row));
  }
  return nearest;
}

/** The longest run of the question's words the sentence repeats in order, over the question's length. */
function longestRun(questionText: string, sentenceWords: string[]): number {
  const asked = words(questionText).map(term);
  const said = sentenceWords.map(term);
  let longest = 0;
  let runs = new Array<number>(said.length + 1).fill(0);
  for (const word of asked) {
    const next = new Array<number>(said.length + 1).fill(0);
    said.forEach((other, index) => {
      if (other !== word) return;
      next[index + 1] = runs[index]! + 1;
      longest = Math.max(longest, next[index + 1]!);
    });
    runs = next;
  }
  return asked.length === 0 ? 0 : longest / asked.length;
}

interface LanguageRarity {
  weights: Map<string, number>;
  total: number;
}

/**
 * A word's rarity in English, read off its GloVe row (the rows go by frequency): `rarityAmong` weighs a term by
 * how few candidates hold it, which says nothing when all of them hold it or none does. A word without a vector
 * is rarer than any with one.
 */
function languageRarity(questionText: string): LanguageRarity {
  const { rows } = wordVectors();
  const weights = new Map<string, number>();
  for (const word of words(questionText)) {
    if (isStopWord(word)) continue;
    weights.set(term(word), Math.log1p((rows.get(word) ?? UNLISTED_ROW) / RARITY_ROWS));
  }
  let total = 0;
  for (const weight of weights.values()) total += weight;
  return { weights, total };
}
/** Rows past the vocabulary (100,000 words), and the rows over which a word's rarity grows by about one. */
const UNLISTED_ROW = 200_000;
const RARITY_ROWS = 100;

function languageCoverage(language: LanguageRarity, candidate: Candidate): number {
  if (language.total === 0) return 0;
  let held = 0;
  for (const [stem, weight] of language.weights) if (candidate.stems.has(stem)) held += weight;
  return held / language.total;
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

/** Each question term's rarity among the candidates, times how much the term counts in the question. */
function rarity(question: Question, candidates: Candidate[]): (term: string) => number {
  const rarities = rarityAmong(question.terms.keys(), candidates, (candidate, term) =>
    candidate.stems.has(term),
  );
  return (term) => (question.terms.get(term) ?? 0) * (rarities.get(term) ?? 0);
}
