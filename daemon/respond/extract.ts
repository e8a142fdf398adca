import { sentences } from '../text/sentences.ts';
import { isStopWord as isFunctionWord, stem, words } from '../text/words.ts';
import type { ContextPassage } from './types.ts';

/** Words a question frames its ask with ("what is it called", "which kind"), which no answer needs to contain. */
const QUESTION_FRAME = new Set(
  'whose s t name named called many much kind type one ones use used according'.split(' '),
);

export function isStopWord(word: string): boolean {
  return isFunctionWord(word) || QUESTION_FRAME.has(word);
}

function contentStems(text: string): string[] {
  return words(text)
    .filter((word) => !isStopWord(word))
    .map(stem);
}

/** One sentence of a passage, scored against the question. */
export interface Finding {
  passage: ContextPassage;
  sentence: string;
  score: number;
  /** Share of the question's weighted content words the sentence (with its neighbour) contains, in [0, 1]. */
  coverage: number;
}

export type AnswerKind = 'date' | 'number' | 'person' | 'place' | 'other';

interface Candidate {
  passage: ContextPassage;
  sentence: string;
  stems: string[];
  previousStems: Set<string>;
}

/** Below this coverage, the sentence shares too little with the question to be an answer. */
export const minimumCoverage = 0.3;
/** Passages the retriever itself scored this low are noise, whatever their words. */
const minimumPassageScore = 0.02;

export function answerKind(question: string): AnswerKind {
  const text = question.toLowerCase();
  if (
    /\b(when|what (year|date|day|month|century|decade|time|period)|which (year|date|century|decade))\b/.test(
      text,
    )
  ) {
    return 'date';
  }
  if (
    /\bhow (many|much|long|old|far|large|big|tall|high|often|fast|heavy)\b|\bwhat (percentage|percent|number|amount|proportion)\b/.test(
      text,
    )
  ) {
    return 'number';
  }
  if (/\b(who|whom|whose)\b/.test(text)) return 'person';
  if (
    /\bwhere\b|\b(what|which) (country|city|state|town|region|continent|place|county|island|river)\b/.test(
      text,
    )
  )
    return 'place';
  return 'other';
}

/**
 * Every sentence of the passages, best first. The score adds the inverse-document-frequency weight
 * of each question word the sentence contains (words rare among these passages count most), a bonus
 * for question word pairs kept in order, a little of its predecessor's overlap (answers often
 * follow the sentence that names the subject), one for holding the kind of thing asked for, and
 * the retriever's own score.
 */
export function rankSentences(question: string, passages: ContextPassage[]): Finding[] {
  const candidates = passages
    .filter((passage) => passage.score >= minimumPassageScore)
    .flatMap((passage) => splitPassage(passage));
  if (candidates.length === 0) return [];
  const questionStems = [...new Set(contentStems(question))];
  if (questionStems.length === 0) return [];
  const weight = inverseFrequencies(candidates, questionStems);
  const totalWeight = questionStems.reduce((sum, term) => sum + (weight.get(term) ?? 0), 0);
  const pairs = stemPairs(contentStems(question));
  const kind = answerKind(question);
  const questionWords = new Set(words(question).map(stem));

  const findings = candidates.map((candidate) => {
    const present = new Set(candidate.stems);
    let matched = 0;
    let neighbour = 0;
    for (const term of questionStems) {
      const termWeight = weight.get(term) ?? 0;
      if (present.has(term)) matched += termWeight;
      else if (candidate.previousStems.has(term)) neighbour += termWeight;
    }
    const pairBonus = [...stemPairs(candidate.stems)].filter((pair) => pairs.has(pair)).length * 0.5;
    const kindBonus = shortAnswer(candidate.sentence, kind, questionWords) ? 1 : 0;
    return {
      passage: candidate.passage,
      sentence: candidate.sentence,
      score: matched + 0.6 * neighbour + pairBonus + kindBonus + 3 * candidate.passage.score,
      coverage: totalWeight > 0 ? (matched + 0.5 * neighbour) / totalWeight : 0,
    };
  });
  return findings.sort((left, right) => right.score - left.score);
}

function splitPassage(passage: ContextPassage): Candidate[] {
  const split = wholeSentences(passageSentences(passage.text)).filter(
    (sentence) => words(sentence).length >= 3,
  );
  return split.map((sentence, index) => ({
    passage,
    sentence,
    stems: contentStems(sentence),
    previousStems: new Set(index > 0 ? contentStems(split[index - 1] ?? '') : []),
  }));
}

/**
 * Sentences of each paragraph (blank-line separated), without Markdown heading lines: a heading
 * names a topic, it answers nothing, and joined to the next line it would make one false sentence.
 */
function passageSentences(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .flatMap((block) =>
      block
        .split('\n')
        .filter((line) => !/^\s{0,3}#{1,6}\s/.test(line))
        .join('\n'),
    )
    .flatMap((block) => sentences(block));
}

/** Chunks overlap and cut sentences at their edges; a cut sentence reads badly and is whole in a neighbour chunk. */
function wholeSentences(split: string[]): string[] {
  if (split.length <= 1) return split;
  const first = split[0] ?? '';
  const last = split.at(-1) ?? '';
  const start = /^[\p{Ll},;:)\]]/u.test(first) ? 1 : 0;
  const end = /[.!?]["”’)\]]?$/.test(last) ? split.length : split.length - 1;
  return split.slice(start, Math.max(start, end));
}

function inverseFrequencies(candidates: Candidate[], terms: string[]): Map<string, number> {
  const weights = new Map<string, number>();
  const documents = candidates.map((candidate) => new Set(candidate.stems));
  for (const term of terms) {
    const frequency = documents.filter((document) => document.has(term)).length;
    weights.set(term, Math.log(1 + (documents.length + 1) / (frequency + 0.5)));
  }
  return weights;
}

function stemPairs(stems: string[]): Set<string> {
  const pairs = new Set<string>();
  for (let index = 1; index < stems.length; index++) pairs.add(`${stems[index - 1]} ${stems[index]}`);
  return pairs;
}

const month =
  '(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan\\.|Feb\\.|Aug\\.|Sept?\\.|Oct\\.|Nov\\.|Dec\\.)';
const datePatterns = [
  new RegExp(`\\b${month} \\d{1,2}(?:st|nd|rd|th)?,? \\d{3,4}\\b`, 'g'),
  new RegExp(`\\b\\d{1,2} ${month},? \\d{3,4}\\b`, 'g'),
  new RegExp(`\\b${month},? \\d{3,4}\\b`, 'g'),
  /\b\d{1,2}(?:st|nd|rd|th) century(?: BC| AD| BCE| CE)?\b/gi,
  /\b(?:1[0-9]|20)\d0s\b/g,
  /\b(?:AD |BC )?(?:1[0-9]\d{2}|20\d{2}|[1-9]\d{2})(?: BC| AD| BCE| CE)?\b/g,
];
const numberWords =
  'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|dozen';
const numberPattern = new RegExp(
  `(?:\\$|£|€|US\\$)?\\b(?:\\d[\\d,]*(?:\\.\\d+)?|(?:${numberWords})(?:[- ](?:${numberWords}))*)\\b(?:\\s?(?:%|percent|per cent|million|billion|trillion|thousand|hundred))?(?:\\s(?!of\\b|and\\b|in\\b|the\\b|to\\b)[a-z]+)?`,
  'gi',
);
const properNamePattern =
  /\b\p{Lu}[\p{L}'’.-]*(?:\s+(?:(?:of|de|da|di|van|von|der|the|and|la|le|du|al|bin)\s+)?\p{Lu}[\p{L}'’.-]*)*/gu;

/**
 * The kind of thing the question asks for, picked out of a sentence: a date, a number with its
 * unit, or a proper name the question does not already contain. Undefined when the question asks
 * for something else or the sentence holds nothing of the kind.
 */
export function shortAnswer(
  sentence: string,
  kind: AnswerKind,
  questionWords: Set<string>,
): string | undefined {
  const isNew = (text: string): boolean => {
    const candidateWords = words(text).filter((word) => !isStopWord(word));
    return candidateWords.length > 0 && candidateWords.some((word) => !questionWords.has(stem(word)));
  };
  const firstNew = (patterns: RegExp[]): string | undefined => {
    for (const pattern of patterns) {
      for (const match of sentence.matchAll(pattern)) if (isNew(match[0])) return match[0].trim();
    }
    return undefined;
  };
  if (kind === 'date') return firstNew(datePatterns);
  if (kind === 'number') return firstNew([numberPattern]);
  if (kind === 'person' || kind === 'place') return properName(sentence, isNew);
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
