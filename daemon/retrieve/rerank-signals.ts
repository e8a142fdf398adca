import type { ChunkHit } from '../store/chunk-index.ts';
import { type AnswerKind, answerKind, answerOfKind, questionNames } from '../text/answer-kind.ts';
import { CONTEXT_WEIGHT, withContext } from '../text/follow-up.ts';
import { termsHeldBySource } from '../text/held-by-source.ts';
import { type AskedWord, askedWords, nearness, saidOtherwise } from '../text/meaning-match.ts';
import { rarityAmong } from '../text/rarity.ts';
import { contentTerms, term, words } from '../text/words.ts';
import { type PassageTerms, passageTerms } from './passage-terms.ts';
import { isQuestion } from './query-form.ts';

/**
 * What the reranker weighs for one hit, each in [0, 1]. "Share" is the share of the query's content terms, each
 * weighted by how rare it is among the candidates, so the words that tell them apart count most.
 */
export interface RerankSignals {
  /** The fused full-text and vector score. */
  fused: number;
  /** Share the passage (with its headings) holds. */
  coverage: number;
  /** Share the passage's best single sentence holds (a question is usually asked of one sentence). */
  sentenceCoverage: number;
  /** Share the best two neighbouring sentences hold together (an answer that names its subject a sentence earlier). */
  windowCoverage: number;
  /** Share of the query's neighbouring content-term pairs the passage keeps in order (a phrase kept). */
  phrases: number;
  /** Share the passage's heading path holds. */
  headings: number;
  /** How close together a sentence holds the query's terms: terms held, over the words they span. */
  proximity: number;
  /** Share of the query's own words, unstemmed and function words included, in one sentence: the wording kept. */
  wording: number;
  /** Whether the best sentence holds the kind of thing a question asks for (a year for "when"). */
  answerKind: number;
  /**
   * The weight of the terms the passage lacks but says in other words ("concern" for "problem"), each by how
   * nearly, over the weight of all: what `coverage` would add if near meanings counted.
   */
  paraphrase: number;
  /** The best single sentence's share, counting the terms it says in other words by how nearly. */
  sentenceMeaning: number;
  /** Share the passage's best paragraph holds: a passage of several paragraphs may be about more than one thing. */
  paragraphCoverage: number;
  /**
   * How often the passage repeats the query's terms, as BM25 counts it (saturated, against the passage's length),
   * each term weighted by its rarity among the candidates: a passage about a claim's subject names it again and again.
   */
  termFrequency: number;
}

export const SIGNAL_NAMES = [
  'fused',
  'coverage',
  'sentenceCoverage',
  'windowCoverage',
  'phrases',
  'headings',
  'proximity',
  'wording',
  'answerKind',
  'paraphrase',
  'sentenceMeaning',
  'paragraphCoverage',
  'termFrequency',
] as const satisfies readonly (keyof RerankSignals)[];

interface QueryTerms {
  /** Distinct content terms and the weight of each. */
  weights: Map<string, number>;
  totalWeight: number;
  pairs: Set<string>;
  /** Its distinct words, each between spaces, as a sentence's `spacedWords` holds them. */
  spacedWords: string[];
  /** Every term of the query: an answer is something it does not already hold. */
  known: Set<string>;
  /** The terms of the names the query uses: a name ending in one is no answer. */
  names: Set<string>;
  answerKind: AnswerKind;
  /** The content words that have word vectors, to find in other words. */
  asked: AskedWord[];
  /** The terms only a follow-up's earlier question holds: what names its topic. */
  topic: ReadonlySet<string>;
}

/**
 * Each hit's signals, in the hits' order; undefined when the query has no content words to weigh. A follow-up's
 * `context` (the earlier question naming its topic) is read with it, but what is asked is the query's own: "when
 * was the Code released? and how often are its reports provided?" asks how often.
 */
export function rerankSignals(
  query: string,
  hits: ChunkHit[],
  context?: string,
): RerankSignals[] | undefined {
  const whole = withContext(query, context);
  const sequence = contentTerms(whole);
  if (hits.length === 0 || sequence.length === 0) return undefined;
  const passages = hits.map(passageTerms);
  const terms = queryTerms({ query, whole }, sequence, passages);
  const meanLength = passages.reduce((sum, passage) => sum + passage.length, 0) / passages.length;
  const topics = termsHeldBySource(
    hits.map((hit, position) => ({ sourceId: hit.sourceId, passage: passages[position]! })),
    terms.topic,
    (item) => item.sourceId,
    (item, term) => item.passage.all.has(term),
  );
  return hits.map((hit, position) =>
    passageSignals(hit.score, passages[position]!, terms, meanLength, topics.get(hit.sourceId)!),
  );
}

function queryTerms(
  { query, whole }: { query: string; whole: string },
  sequence: string[],
  passages: PassageTerms[],
): QueryTerms {
  const own = new Set(contentTerms(query));
  const weights = rarityAmong(new Set(sequence), passages, (passage, term) => passage.all.has(term));
  const topic = new Set<string>();
  for (const [term, weight] of weights) {
    if (own.has(term)) continue;
    weights.set(term, weight * CONTEXT_WEIGHT);
    topic.add(term);
  }
  const queryWords = words(whole);
  const pairs = new Set<string>();
  for (let index = 1; index < sequence.length; index++)
    pairs.add(`${sequence[index - 1]} ${sequence[index]}`);
  return {
    weights,
    topic,
    totalWeight: [...weights.values()].reduce((sum, weight) => sum + weight, 0),
    pairs,
    spacedWords: [...new Set(queryWords)].map((word) => ` ${word} `),
    known: new Set(queryWords.map(term)),
    names: questionNames(whole),
    // A statement asks for nothing: its "where" or "when" is a relative word (query-form.ts).
    answerKind: isQuestion(query) ? answerKind(query) : 'other',
    asked: askedWords(whole, (term) => weights.get(term) ?? 0),
  };
}

function share(terms: QueryTerms, held: (term: string) => boolean): number {
  let sum = 0;
  for (const [term, weight] of terms.weights) if (held(term)) sum += weight;
  return sum / terms.totalWeight;
}

function passageSignals(
  fused: number,
  passage: PassageTerms,
  terms: QueryTerms,
  meanLength: number,
  sourceTopic: ReadonlySet<string>,
): RerankSignals {
  // What a passage, sentence or paragraph holds, with the topic its source holds (text/held-by-source.ts).
  const holding = (held: (term: string) => boolean) => (term: string) => held(term) || sourceTopic.has(term);
  let sentenceCoverage = 0;
  let answerKind = 0;
  let windowCoverage = 0;
  let proximity = 0;
  let wording = 0;
  let sentenceMeaning = 0;
  // How near each asked word comes to a word of the passage: the nearest over its sentences.
  const passageNearness = terms.asked.map(() => 0);
  passage.sentences.forEach((sentence, position) => {
    const holds = holding((term) => sentence.termSet.has(term));
    const coverage = share(terms, holds);
    const near = nearness(terms.asked, sentence.rows);
    near.forEach((value, index) => {
      passageNearness[index] = Math.max(passageNearness[index]!, value);
    });
    sentenceMeaning = Math.max(
      sentenceMeaning,
      coverage + saidOtherwise(terms.asked, near, holds) / terms.totalWeight,
    );
    if (coverage > sentenceCoverage) {
      sentenceCoverage = coverage;
      answerKind =
        answerOfKind(sentence.text, terms.answerKind, terms.known, terms.names) === undefined ? 0 : 1;
    }
    const next = passage.sentences[position + 1];
    const window = next
      ? share(
          terms,
          holding((term) => sentence.termSet.has(term) || next.termSet.has(term)),
        )
      : coverage;
    windowCoverage = Math.max(windowCoverage, window);
    proximity = Math.max(proximity, closeness(sentence.terms, terms));
    wording = Math.max(wording, heldShare(terms.spacedWords, sentence.spacedWords));
  });
  return {
    fused,
    coverage: share(
      terms,
      holding((term) => passage.all.has(term)),
    ),
    sentenceCoverage,
    windowCoverage,
    phrases: phrasesKept(passage, terms.pairs),
    // A heading's words are its own: crediting the topic to a passage without one would outweigh its sentences.
    headings: share(terms, (term) => passage.headings.has(term)),
    proximity,
    wording,
    answerKind,
    paraphrase:
      saidOtherwise(
        terms.asked,
        passageNearness,
        holding((term) => passage.all.has(term)),
      ) / terms.totalWeight,
    sentenceMeaning,
    paragraphCoverage: Math.max(
      ...passage.paragraphs.map((paragraph) =>
        share(
          terms,
          holding((term) => paragraph.has(term)),
        ),
      ),
    ),
    termFrequency: termFrequency(passage, terms, meanLength),
  };
}

/** BM25's usual saturation and length normalisation (Robertson and Zaragoza 2009). */
const SATURATION = 1.2;
const LENGTH_NORMALISATION = 0.75;

/** The query's terms counted as BM25 counts them, weighted by rarity, over the most they could score: in [0, 1). */
function termFrequency(passage: PassageTerms, terms: QueryTerms, meanLength: number): number {
  const lengthRatio = meanLength > 0 ? passage.length / meanLength : 1;
  const damping = SATURATION * (1 - LENGTH_NORMALISATION + LENGTH_NORMALISATION * lengthRatio);
  let sum = 0;
  for (const [term, weight] of terms.weights) {
    const count = passage.counts.get(term) ?? 0;
    sum += (weight * count) / (count + damping);
  }
  return sum / terms.totalWeight;
}

/** The share of the query's terms a sentence holds, times how densely: both 1 when they stand side by side. */
function closeness(sentence: readonly string[], terms: QueryTerms): number {
  let first = -1;
  let last = -1;
  const held = new Set<string>();
  sentence.forEach((term, position) => {
    if (!terms.weights.has(term)) return;
    if (first < 0) first = position;
    last = position;
    held.add(term);
  });
  if (held.size < 2) return 0;
  return (held.size / terms.weights.size) * (held.size / (last - first + 1));
}

function heldShare(spacedWords: string[], spacedSentence: string): number {
  if (spacedWords.length === 0) return 0;
  let count = 0;
  for (const word of spacedWords) if (spacedSentence.includes(word)) count++;
  return count / spacedWords.length;
}

function phrasesKept(passage: PassageTerms, pairs: Set<string>): number {
  if (pairs.size === 0) return 0;
  const kept = new Set<string>();
  for (const { terms } of passage.sentences) {
    for (let index = 1; index < terms.length; index++) {
      const pair = `${terms[index - 1]} ${terms[index]}`;
      if (pairs.has(pair)) kept.add(pair);
    }
  }
  return kept.size / pairs.size;
}
