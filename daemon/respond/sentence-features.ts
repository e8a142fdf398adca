/** What the sentence model reads of each candidate sentence: how it meets the question. */
import { extname } from 'node:path';
import { isSupportedExtension } from '../../src/api/files.ts';
import { answerOfKind, questionNames } from '../text/answer-kind.ts';
import { termsHeldBySource } from '../text/held-by-source.ts';
import { pointsAtSource } from '../text/overview.ts';
import { rarityAmong } from '../text/rarity.ts';
import { RECORD_LINE } from '../text/sentences.ts';
import { titlePage } from '../text/title-page.ts';
import { hasVariant, term, words } from '../text/words.ts';
import {
  type Candidate,
  candidateSentences,
  holdsOrLeansOn,
  labelsNothing,
  labelsValue,
  saidBy,
  sourceOf,
} from './candidates.ts';
import { contactAsked } from './contacts.ts';
import { contentStems } from './content-words.ts';
import { type Question, saysSuperlative } from './question.ts';
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
] as const;

/**
 * Each candidate sentence with its features (`SENTENCE_FEATURES`). Terms are weighted by how rare they are among
 * the candidates, so the words that tell sentences apart count most.
 */
export function featureRows(
  question: Question,
  passages: ContextPassage[],
): { candidate: Candidate; features: number[] }[] {
  const writesContact = contactAsked(question);
  const read = candidateSentences(passages);
  const candidates = aboutNamed(
    question,
    read.filter((candidate) => competes(question, writesContact, candidate)),
  );
  if (candidates.length === 0 || question.terms.size === 0) return [];
  const weight = rarity(question, candidates);
  const termWeights = [...question.terms.keys()].map(weight);
  const total = termWeights.reduce((sum, termWeight) => sum + termWeight, 0);
  if (total === 0) return [];
  const heaviest = Math.max(...termWeights);
  const sharpTotal = termWeights.reduce((sum, termWeight) => sum + termWeight ** 2, 0);
  const topics = termsHeldBySource(candidates, question.topic, sourceOf, holdsOrLeansOn);
  const named = namedBySources(question, candidates);
  const saysSuperlativeOtherwise = superlativeOtherwise(question);
  // Weighed among all the candidates: among a name's records alone the question's own verb ("say") turns rare.
  return recordsOfNamed(question, candidates, read).map((candidate) => ({
    candidate,
    features: sentenceFeatures(question, candidate, {
      weight,
      total,
      heaviest,
      sharpTotal,
      saysSuperlativeOtherwise,
      sourceTopic: topics.get(candidate.passage.sourceId)!,
      sourceNamed: named.get(candidate.passage.sourceId)!,
    }),
  }));
}

/**
 * The question's terms each source's name, or the title page its first chunk opens with, holds. They tell which
 * document a question asks about ("What did the hogs get to eat in the Harvard sentence list?" of
 * harvard_sentences.json), as a follow-up's topic does: each sentence of the source meeting the question in words
 * of its own holds them (`namedFor`), so those words decide between its sentences, not the one sentence that
 * repeats the document's name ("The Harvard sentences are a collection of sample phrases") or a line of its title
 * slide ("For the OSU Group and CDF Root2001 Workshop" for "What did the CDF/OSU group ask to have added to the ROOT
 * website?"). Not the words pointing at any source: "document" in "document.pdf" names nothing.
 */
function namedBySources(question: Question, candidates: Candidate[]): Map<string, Set<string>> {
  const names = new Map<string, string[]>();
  for (const passage of new Set(candidates.map((candidate) => candidate.passage))) {
    const words = names.get(passage.sourceId) ?? [nameWords(passage.sourceName)];
    const title = passage.chunkIndex === 0 ? titlePage(passage.text) : undefined;
    names.set(passage.sourceId, title === undefined ? words : [...words, title]);
  }
  const named = new Map<string, Set<string>>();
  for (const [source, words] of names) {
    const stems = words.flatMap((text) => contentStems(text));
    named.set(source, new Set(stems.filter((stem) => question.terms.has(stem) && !pointsAtSource(stem))));
  }
  return named;
}

/** A source's name as words: "harvard_sentences.json" is "harvard sentences". */
function nameWords(name: string): string {
  const extension = extname(name).toLowerCase();
  const bare = isSupportedExtension(extension) ? name.slice(0, -extension.length) : name;
  return bare.replace(NAME_SEPARATORS, ' ');
}

const NAME_SEPARATORS = /[_\-.]+/g;

/**
 * The terms of the source's name a sentence holds as its own: all of them when it meets the question in a word the
 * name does not hold, else none. A sentence meeting nothing else of the question gains nothing: a label's bare value
 * under "Opening hours of the library:" in library.html does not answer "What are the opening hours of the library?".
 */
function namedFor(question: Question, candidate: Candidate, named: ReadonlySet<string>): ReadonlySet<string> {
  for (const stem of candidate.stems) if (question.terms.has(stem) && !named.has(stem)) return named;
  return NONE;
}

const NONE: ReadonlySet<string> = new Set();

/**
 * A sentence of only the question's own words cannot say what a wh-question asks ("It was Elyse Saugstad." for
 * "What gear was Elyse Saugstad wearing?"), unless it labels a value after it ("CREDO REFERENCE" over "03/599"). A
 * heading competes only when it holds most of the question's own words (but the names it uses, when they are
 * fewer) and the kind of thing asked for, or writes the way to reach someone the question asks for
 * (`writesContact`, contacts.ts): then it is the answer ("## Release 4.0.0 - 8/18/2026" for "When was 4.0.0
 * released?"), else it only names a topic.
 */
function competes(
  question: Question,
  writesContact: ((sentence: string) => boolean) | undefined,
  candidate: Candidate,
): boolean {
  if (labelsNothing(candidate)) return false;
  if (
    question.open &&
    !labelsValue(candidate) &&
    [...candidate.stems].every((stem) => question.known.has(stem))
  )
    return false;
  if (!candidate.heading) return true;
  // A page's header line may be the address asked for: "Apache Tika - Apache Tika http://incubator.apache.org/tika/".
  if (writesContact?.(candidate.sentence)) return true;
  // The names a question uses tell its source (`aboutNamed`); a heading in a changelog need not repeat them. When
  // they are most of its words, they name what it asks about: "When was Release 1 of the COUNTER Code of Practice
  // issued?", whose capitalised words are all read as names, is answered by "Code of Practice, Release 1 January
  // 2003".
  const unnamed = question.sequence.filter((term) => !question.names.has(term));
  const asked = new Set(unnamed.length * 2 > question.sequence.length ? unnamed : question.sequence);
  const held = [...asked].filter((term) => candidate.stems.has(term)).length;
  return (
    held * 2 > asked.size &&
    question.kind !== 'other' &&
    answerOfKind(candidate.sentence, question.kind, question.known, question.names) !== undefined
  );
}

/**
 * When the passages of some source hold a name the question uses ("COUNTER" in "What does COUNTER measure?"), the
 * sentences of sources holding none of its names are about something else, however well their other words match
 * ("measuring the single top cross section", from a talk on particle physics).
 */
function aboutNamed(question: Question, candidates: Candidate[]): Candidate[] {
  // The message's own names: a follow-up naming its own topic ("And how often must the usage reports be
  // provided?") may be answered by a source that never names the earlier question's ("COUNTER's Code of Practice").
  const names = questionNames(question.text);
  if (names.size === 0) return candidates;
  const held = termsHeldBySource(candidates, names, sourceOf, holdsOrLeansOn);
  const naming = new Set([...held].filter(([, terms]) => terms.size > 0).map(([source]) => source));
  if (naming.size === 0) return candidates;
  return candidates.filter((candidate) => naming.has(sourceOf(candidate)));
}

/**
 * A record's key path names what the record is about (`main.characters."Dr. Robert Ford"[3].quote`): when the
 * question names what the keys of some records of a source name, that source's records keyed by something else are
 * about another, however well their values match ("Winning doesn't mean anything unless someone else loses", the
 * Man in Black's, for "In the Westworld quotes, Ford says you can't play God unless you know someone. Who?"); unless
 * their own words name it too ("Ford built a god in the park", Bernard's, for "Which character says Ford built a
 * god?"), not only another name of the question ("I'm a god."). Each sentence of a record's value belongs to its key,
 * not only the first; keys are read from all of the passages' sentences (`read`), before any was set aside.
 */
function recordsOfNamed(question: Question, candidates: Candidate[], read: Candidate[]): Candidate[] {
  const names = questionNames(question.text);
  if (names.size === 0) return candidates;
  const keys = new Map([...recordKeys(read)].map(([candidate, key]) => [candidate, contentStems(key)]));
  const keyedNames = new Set([...keys.values()].flat().filter((stem) => names.has(stem)));
  if (keyedNames.size === 0) return candidates;
  const namesKeyed = (stems: Iterable<string>) => [...stems].some((stem) => keyedNames.has(stem));
  const naming = new Set(
    [...keys].filter(([, key]) => namesKeyed(key)).map(([candidate]) => sourceOf(candidate)),
  );
  return candidates.filter((candidate) => {
    const key = keys.get(candidate);
    return (
      key === undefined || !naming.has(sourceOf(candidate)) || namesKeyed(key) || namesKeyed(candidate.stems)
    );
  });
}

/**
 * The key of the record each sentence is of, for those of structured records (`KEY_PATH`): a record's first sentence
 * opens with its key (`main.characters."Man in Black"[6].quote: You want to know who I am?`), and the sentences after
 * it are of its value ("I'm a god."), up to the next record's. Read from all of the passages' sentences, before any
 * is set aside, in their order, which `candidateSentences` keeps (headings after them): no search of the text.
 */
function recordKeys(read: Candidate[]): Map<Candidate, string> {
  const keys = new Map<Candidate, string>();
  let last: { passage: ContextPassage; key: string | undefined } | undefined;
  for (const candidate of read) {
    let key: string | undefined;
    if (RECORD_LINE.test(candidate.sentence)) key = keyOf(candidate);
    else if (!candidate.heading && last?.passage === candidate.passage) key = last.key;
    if (key !== undefined) keys.set(candidate, key);
    last = { passage: candidate.passage, key };
  }
  return keys;
}

/** The key path a record's sentence (`RECORD_LINE`) opens with, if it is one. */
function keyOf(candidate: Candidate): string | undefined {
  const { sentence } = candidate;
  const key = sentence.slice(0, sentence.indexOf(': '));
  return KEY_PATH.test(key) || (readsJson(candidate.passage) && JSON_PATH.test(key)) ? key : undefined;
}

/**
 * A structured record's key path, as a JSON leaf's: spaced only within quotes, and indexed or quoting a key
 * (`main.characters."Man in Black"[6].quote`, `items[2].name`); not a site's name ("ford.com") or a version...
 */
const KEY_PATH = /^(?=[^:]*(?:\[\d+\]|"))(?:[^\s:"]|"[^"\n]*")+$/;
/** ...but in a JSON source, whose reader writes every leaf's path, a dotted one too (`quotes.Ford`). */
const JSON_PATH = /^[^\s:."]+(?:\.[^\s:."]+)+$/;

/** Whether a passage is of a JSON source. */
function readsJson(passage: ContextPassage): boolean {
  return extname(passage.sourceName).toLowerCase() === '.json';
}

/**
 * For a question asking the most or least of a thing, whether a sentence ranks it alike in other words (question.ts
 * `saysSuperlative`), in a passage that never uses the question's own adjective: where it does, a sentence of
 * another adjective ranks by something else ("the most silver medals" beside "the most gold medals").
 */
function superlativeOtherwise(question: Question): (candidate: Candidate) => boolean {
  const { superlative } = question;
  if (superlative === undefined) return () => false;
  const usesAdjective = new Map<ContextPassage, boolean>();
  return (candidate) => {
    if (!saysSuperlative(superlative, candidate.sentence)) return false;
    const { passage } = candidate;
    let uses = usesAdjective.get(passage);
    if (uses === undefined) {
      uses = contentStems(passage.text).includes(superlative.adjective);
      usesAdjective.set(passage, uses);
    }
    return !uses;
  };
}

interface Weighing {
  saysSuperlativeOtherwise: (candidate: Candidate) => boolean;
  weight: (term: string) => number;
  total: number;
  heaviest: number;
  sharpTotal: number;
  /** The follow-up's topic terms the candidate's source holds (text/held-by-source.ts). */
  sourceTopic: ReadonlySet<string>;
  /** The question's terms the candidate's source's name holds (`namedBySources`). */
  sourceNamed: ReadonlySet<string>;
}

function sentenceFeatures(question: Question, candidate: Candidate, weighing: Weighing): number[] {
  const { weight, total } = weighing;
  let held = 0;
  let previous = 0;
  let next = 0;
  let variant = 0;
  let missing = 0;
  let sharpHeld = 0;
  // A superlative in other words holds the question's adjective (question.ts `saysSuperlative`).
  const superlative = question.superlative;
  const rankedAlike = superlative !== undefined && weighing.saysSuperlativeOtherwise(candidate);
  const named = namedFor(question, candidate, weighing.sourceNamed);
  for (const term of question.terms.keys()) {
    const termWeight = weight(term);
    if (
      candidate.stems.has(term) ||
      weighing.sourceTopic.has(term) ||
      named.has(term) ||
      (rankedAlike && term === superlative.adjective)
    ) {
      held += termWeight;
      sharpHeld += termWeight ** 2;
      continue;
    }
    if (candidate.previous.has(term)) previous += termWeight;
    else if (candidate.next.has(term)) next += termWeight;
    if (hasVariant(term, candidate.stems)) variant += termWeight;
    else missing = Math.max(missing, termWeight);
  }
  const coverage = held / total;
  // A label's answer is its value on the next line ("Number of Copies:" and "9"), which a reply quotes with it.
  const said = saidBy(candidate);
  const answer =
    question.kind === 'other' ? undefined : answerOfKind(said, question.kind, question.known, question.names);
  const otherName =
    question.kind === 'other' ? answerOfKind(said, 'person', question.known, question.names) : undefined;
  const otherNumber = question.kind === 'other' ? answerOfKind(said, 'number', question.known) : undefined;
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
    // How often is a number of times, how big an amount of something: the quantity asked for.
    answer !== undefined &&
    (question.kind === 'number' || question.kind === 'measure' || question.kind === 'frequency')
      ? 1
      : 0,
    answer !== undefined && (question.kind === 'person' || question.kind === 'place') ? 1 : 0,
    1 / candidate.passage.number,
    length < 8 ? 1 : 0,
    length > 40 ? 1 : 0,
    phrasesKept(question, candidate),
    question.focus !== undefined && candidate.stems.has(question.focus) ? 1 : 0,
    otherName === undefined ? 0 : 1,
    otherNumber === undefined ? 0 : 1,
    nearness(question, said, answer ?? otherName ?? otherNumber),
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
