/** The whole sentences of retrieved passages that a reply may quote. */
import { HEADING_MARK, type Heading, markdownHeading } from '../text/headings.ts';
import { termsHeldBySource } from '../text/held-by-source.ts';
import { cachedReader } from '../text/reading-cache.ts';
import {
  FENCE,
  LIST_ITEM,
  quotableSentences,
  RECORD_LINE,
  sentences,
  textAndCode,
} from '../text/sentences.ts';
import { isStopWord, wordCount, words } from '../text/words.ts';
import { withAcronyms } from './acronyms.ts';
import { contentStems } from './content-words.ts';
import type { ContextPassage } from './types.ts';

/** One whole sentence of a passage that could answer. */
export interface Candidate {
  passage: ContextPassage;
  sentence: string;
  /** Position among the passage's candidate sentences. */
  position: number;
  stems: Set<string>;
  /** Kept between queries with the passage's reading (reading-cache.ts), so read-only. */
  sequence: readonly string[];
  /** What the sentence leans on: the sentence before it, the title and the headings it sits under. */
  previous: Set<string>;
  next: Set<string>;
  /** The passage's next sentence or line, however short: the value after a `label:`. */
  following?: string;
  /** For a label on a line of its own introducing a list, the list's items: "Headings", "Lists", "Tables". */
  listed?: readonly string[];
  /**
   * A Markdown heading, or a passage's title line (a slide's title): it names a topic more often than it answers
   * (sentence-features.ts `competes`).
   */
  heading: boolean;
}

/**
 * The whole sentences of the passages, each once: chunks overlap, and a sentence cut at a chunk's edge reads
 * badly and is whole in the neighbouring chunk. A Markdown heading names what a passage's sentences are about:
 * with the sentence before, it is what a sentence leans on. It is a candidate too, without its #'s, after the
 * passage's sentences: in a changelog the heading is the answer ("## Release 4.0.0 - 8/18/2026"). Each holds the
 * acronyms that the given passages of its source define in their other form too (acronyms.ts).
 */
export function candidateSentences(passages: ContextPassage[]): Candidate[] {
  const seen = new Set<string>();
  const firstTime = ({ key }: SentenceReading): boolean => {
    if (key === undefined || seen.has(key)) return false;
    seen.add(key);
    return true;
  };
  const candidates: Candidate[] = [];
  for (const passage of passages) {
    const { split, title, titleStems, headings } = readPassage(passage);
    // The headings the passage sits under in its document (a deck's title over each slide) name what its
    // sentences are about, as the title line it opens with does.
    const subjectStems = contentStems((passage.headings ?? []).join('\n'));
    let position = 0;
    split.forEach((sentence, index) => {
      if (!firstTime(sentence)) return;
      const following = split[index + 1]?.text;
      candidates.push({
        passage,
        sentence: sentence.text,
        position: position++,
        stems: new Set(sentence.stems),
        sequence: sentence.stems,
        previous: new Set([
          ...(split[index - 1]?.stems ?? []),
          ...(sentence.text === title ? [] : titleStems),
          ...subjectStems,
        ]),
        next: new Set(split[index + 1]?.stems ?? []),
        ...(sentence.listed === undefined ? {} : { listed: sentence.listed }),
        // A `label: value` first line is a record, not a title; so is a label over its value.
        heading:
          sentence.text === title &&
          !RECORD_LINE.test(sentence.text) &&
          !labelsValueBelow(sentence.text, following),
        ...(following === undefined ? {} : { following }),
      });
    });
    for (const heading of headings) {
      if (!firstTime(heading)) continue;
      const none = new Set<string>();
      candidates.push({
        passage,
        sentence: heading.text,
        position: position++,
        stems: new Set(heading.stems),
        sequence: heading.stems,
        previous: none,
        next: none,
        heading: true,
      });
    }
  }
  return withAcronyms(candidates);
}

/** Whether a sentence is `offset` places from another in their passage: 1 the next, -1 the one before, 0 itself. */
export function placedFrom(candidate: Candidate, from: Candidate, offset: number): boolean {
  return candidate.passage.number === from.passage.number && candidate.position === from.position + offset;
}

/** The source a sentence comes from. */
export function sourceOf(candidate: Candidate): string {
  return candidate.passage.sourceId;
}

/** Whether a sentence holds a term, or leans on one (the sentence before it, the title it sits under). */
export function holdsOrLeansOn(candidate: Candidate, term: string): boolean {
  return candidate.stems.has(term) || candidate.previous.has(term);
}

/** The sources whose sentences hold, or lean on, every one of the names between them. */
export function sourcesNamingAll(candidates: readonly Candidate[], names: ReadonlySet<string>): Set<string> {
  const held = termsHeldBySource(candidates, names, sourceOf, holdsOrLeansOn);
  return new Set([...held].filter(([, terms]) => terms.size === names.size).map(([source]) => source));
}

/**
 * How many of the terms the sentences of a candidate's source hold between them: which source says most of a
 * question. Counted once for all the candidates given.
 */
export function termsHeldBySourceOf(
  candidates: readonly Candidate[],
  terms: Iterable<string>,
): (candidate: Candidate) => number {
  const held = termsHeldBySource(candidates, terms, sourceOf, (candidate, term) => candidate.stems.has(term));
  return (candidate) => held.get(sourceOf(candidate))?.size ?? 0;
}

/** The title of a sentence's passage (its first Markdown heading, or a slide's title line), as a candidate. */
export function titleOf(candidate: Candidate): Candidate | undefined {
  const { title } = readPassage(candidate.passage);
  if (title === undefined || title === candidate.sentence) return undefined;
  return candidateSentences([candidate.passage]).find((other) => other.heading && other.sentence === title);
}

/** The Markdown heading nearest above a sentence in its passage's text: what its section is about. */
export function headingOver(candidate: Candidate): string | undefined {
  return sectionOf(candidate).at(-1)?.text;
}

/**
 * The headings a sentence sits under in its passage's text, outermost first: "## Italic text" then "### Example".
 * Lines of fenced code are no headings ("# from the index" in a shell example). A sentence the text holds only with
 * other line breaks (a hard-wrapped paragraph) is found by its words.
 */
export function sectionOf(candidate: Candidate): Heading[] {
  const { text } = candidate.passage;
  const at = positionIn(text, candidate.sentence);
  const path: Heading[] = [];
  const prose = at < 0 ? [] : textAndCode(text.slice(0, at)).filter((part) => !part.code);
  for (const line of prose.flatMap((part) => part.text.split('\n'))) {
    const heading = markdownHeading(line);
    if (!heading) continue;
    while (path.length > 0 && path.at(-1)!.level >= heading.level) path.pop();
    path.push(heading);
  }
  return path;
}

/** Where a sentence starts in a text, its whitespace aside; -1 when the text does not hold it. */
function positionIn(text: string, sentence: string): number {
  const at = text.indexOf(sentence);
  if (at >= 0) return at;
  const words = sentence.slice(0, SENTENCE_PREFIX).split(/\s+/).filter(Boolean);
  const escaped = words.map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return escaped.length === 0 ? -1 : text.search(new RegExp(escaped.join('\\s+')));
}

/** The start of a sentence that finds it in a text. */
const SENTENCE_PREFIX = 120;

/** Sentences sharing this much of their words say the same thing (a heading repeated, a forwarded subject). */
const REPEAT_OVERLAP = 0.8;

/**
 * Whether two sentences say the same thing: they share most of their words, or one is the value a label quotes
 * after it ("...required in the usual way:" and its code sample).
 */
export function repeats(candidate: Candidate, other: Candidate): boolean {
  if (introduces(candidate, other) || introduces(other, candidate)) return true;
  const smaller = Math.min(candidate.stems.size, other.stems.size);
  if (smaller === 0) return false;
  let shared = 0;
  for (const term of candidate.stems) if (other.stems.has(term)) shared++;
  return shared / smaller >= REPEAT_OVERLAP;
}

/**
 * What a label ("Deadline for submission:", or a sentence ending where its object should be) introduces in the
 * sentence or line after it, quoted with it in a reply;
 * and what answers a question the document asks itself ("Motivation – Why ROOT ?", an FAQ's question), unless
 * another question follows it (a slide listing what it will cover).
 */
export function labelledValue(candidate: Candidate): string | undefined {
  const { sentence, following } = candidate;
  if (sentence.endsWith(':')) return candidate.listed?.join('; ') ?? following;
  if (ENDS_BEFORE_ITS_OBJECT.test(sentence) || labelsValueBelow(sentence, following)) return following;
  return sentence.endsWith('?') && !following?.endsWith('?') ? following : undefined;
}

/**
 * A sentence ending where its object should be, which a page puts after it as a list or a row of logos: "rentalo is
 * recommended by." and "National geografic traveler, Travel leisure, The New York Times".
 */
const ENDS_BEFORE_ITS_OBJECT = /\b(?:by|such as|including|includes?)\.$/i;

/**
 * A form's label in a cell of its own over its value in the next ("CREDO REFERENCE" over "03/599"): a few words
 * without a number or a stop, then a value of a few characters holding a number and a mark between its digits (a
 * reference, an amount, a date), no word of more than a letter or two, and no final stop. A table read out of a
 * document lays its cells out so. A bare number is not read as a value: under a slide's title or a page's running
 * header it is a year or a page number ("Songbird Migration" over "7"), in a table's header row the first row's
 * first cell ("Students Enrolled" over "2019"), after a list's item the next item's number ("2.").
 */
function labelsValueBelow(label: string, value: string | undefined): boolean {
  return (
    value !== undefined &&
    VALUE_BELOW.test(value) &&
    !BARE_NUMBER.test(value) &&
    LABEL_ABOVE.test(label) &&
    wordCount(label) <= LABEL_ABOVE_WORDS
  );
}

/** Whether a candidate is a label over its value (`labelsValueBelow`), which it is quoted with. */
export function labelsValue(candidate: Candidate): boolean {
  return labelsValueBelow(candidate.sentence, candidate.following);
}

const LABEL_ABOVE = /^[\p{L}][\p{L}'’&/ -]*$/u;
const LABEL_ABOVE_WORDS = 4;
const VALUE_BELOW = /^(?=[^\p{L}]*\p{N})(?!.*\p{L}{3})[^\s.!?](?:[^!?]{0,22}[^\s.!?])?$/u;
const BARE_NUMBER = /^\p{N}+$/u;

/** A label, or a sentence ending where its object should be: what it says is what follows it (`labelledValue`). */
function introducesWhatFollows(sentence: string): boolean {
  return sentence.endsWith(':') || ENDS_BEFORE_ITS_OBJECT.test(sentence);
}

/**
 * A label whose passage holds no value after it ("Rentalo certified & recommended by:" over a row of logos): a
 * fragment, which says nothing a reply could open with.
 */
export function labelsNothing(candidate: Candidate): boolean {
  return introducesWhatFollows(candidate.sentence) && labelledValue(candidate) === undefined;
}

/** What a sentence says as a reply quotes it: with the value or answer after it (`labelledValue`). */
export function saidBy(candidate: Candidate): string {
  const value = labelledValue(candidate);
  return value === undefined ? candidate.sentence : `${candidate.sentence} ${value}`;
}

/**
 * A question the document asks itself, answered for what a user's question names beyond it. A table's row asks
 * "Can You Create Derivative Works?" and answers once for each column ("GPL v3.0: Yes, but...", "LGPL v3.0: Yes,
 * but..."): for "Can I create derivative works under the LGPL?" its answer is the first sentence after it in its
 * passage, before its next question, holding the names it lacks: the LGPL's cell, not the GPL's after it.
 */
export function answeredFor(
  names: ReadonlySet<string>,
  asked: Candidate,
  candidates: readonly Candidate[],
): Candidate {
  if (!asked.sentence.endsWith('?')) return asked;
  const lacking = [...names].filter((name) => !asked.stems.has(name));
  if (lacking.length === 0) return asked;
  // Read in the passage's text: a short question ("Attribution?") is no candidate, yet ends the answers.
  const { text } = asked.passage;
  const answersFrom = text.indexOf(asked.sentence) + asked.sentence.length;
  for (const { candidate, at } of followingInText(asked, candidates)) {
    if (text.slice(answersFrom, at + candidate.sentence.length).includes('?')) break;
    if (lacking.every((name) => candidate.stems.has(name)))
      return { ...asked, following: candidate.sentence };
  }
  return asked;
}

/**
 * The candidates of a sentence's passage found after it in the passage's text, in the text's order, each with where
 * it starts there. None when the sentence is not found as it stands in the text.
 */
export function followingInText(
  anchor: Candidate,
  candidates: readonly Candidate[],
): { candidate: Candidate; at: number }[] {
  const { text } = anchor.passage;
  const anchorAt = text.indexOf(anchor.sentence);
  if (anchorAt < 0) return [];
  const from = anchorAt + anchor.sentence.length;
  return candidates
    .filter((candidate) => candidate.passage === anchor.passage && candidate !== anchor)
    .map((candidate) => ({ candidate, at: text.indexOf(candidate.sentence, from) }))
    .filter(({ at }) => at >= 0)
    .sort((left, right) => left.at - right.at);
}

/** A list a label introduces is quoted this far: its items' first sentences, up to this many words... */
const LISTED_WORDS = 40;
/** ...or this many items. */
const LISTED_ITEMS = 12;

/**
 * The list a label on a line of its own introduces ("The following features are currently supported:" and the
 * items under it), as its items' first sentences: "Headings", "Lists", "Tables". The lines an item wraps onto follow it
 * without a blank line; a line after a blank that is no item ends the list.
 */
function listAfter(text: string, label: string): string[] | undefined {
  const at = text.indexOf(`${label}\n`);
  if (at < 0) return undefined;
  const items: string[] = [];
  let listedWords = 0;
  let afterBlank = false;
  for (const line of text.slice(at + label.length + 1).split('\n')) {
    const blank = line.trim() === '';
    const isItem = LIST_ITEM.test(line);
    const carriesOn = items.length > 0 && !afterBlank;
    afterBlank = blank;
    if (blank || (carriesOn && !isItem)) continue;
    if (!isItem) break;
    const item = listedItem(sentences(line)[0] ?? line);
    listedWords += wordCount(item);
    if (items.length === LISTED_ITEMS || (items.length > 0 && listedWords > LISTED_WORDS)) break;
    items.push(item);
  }
  return items.length > 1 ? items : undefined;
}

/** A list item's first sentence as a list quotes it: without its mark and its final stop. */
function listedItem(sentence: string): string {
  return sentence.replace(LIST_ITEM, '').replace(/\.$/, '');
}

/**
 * The label on the line before a value (`labelledValue`), among the candidates the value was read with (positions
 * skip the sentences an earlier passage holds; read only for a sentence that may be a value): what a reply quotes
 * the value with. Only a label's own value, a code block or a few words ("`p[style-name='Heading 1'] => h1:fresh`"):
 * a sentence of prose after "...like the following:" says something of its own where a list was lost, and one after
 * a question answers it unasked.
 */
export function labelOf(value: Candidate, candidates: () => readonly Candidate[]): Candidate | undefined {
  if (!FENCE.test(value.sentence) && wordCount(value.sentence) > LABELLED_VALUE_WORDS) return undefined;
  const label = candidates().find((other) => placedFrom(other, value, -1));
  return label?.sentence.endsWith(':') && introduces(label, value) ? label : undefined;
}

/** The most words of a value of prose quoted with its label. */
const LABELLED_VALUE_WORDS = 12;

/** By text alone: a sentence is a candidate once, in the first passage holding it, maybe not its label's. */
function introduces(label: Candidate, value: Candidate): boolean {
  if (labelledValue(label) === value.sentence) return true;
  return label.listed?.includes(listedItem(value.sentence)) ?? false;
}

/** A sentence as read whatever the question. */
interface SentenceReading {
  readonly text: string;
  readonly stems: readonly string[];
  /**
   * The sentence, case and punctuation aside, to meet its repeats by; none when it is too short to answer, or is a
   * row of links (a read-me's badges), which names the project in every address and says nothing of it.
   */
  readonly key: string | undefined;
  /** For a label on a line of its own introducing a list, the list's items (`listAfter`). */
  readonly listed?: readonly string[];
}

/** What is read of a passage's text alone, whatever the question. */
interface PassageReading {
  /** Its whole sentences but headings. */
  readonly split: readonly SentenceReading[];
  readonly title: string | undefined;
  readonly titleStems: readonly string[];
  /** Its Markdown headings without their #'s. */
  readonly headings: readonly SentenceReading[];
}

/** About 7 to 9 bytes a character of the text; the reranker reads the same passages again for its answer shares. */
const readPassage = cachedReader(
  (passage: ContextPassage) => passage.text,
  (passage): PassageReading => readText(passage.text),
);

function readText(text: string): PassageReading {
  const all = quotableSentences(text);
  const title = passageTitle(all);
  return {
    split: wholeSentences(
      all.filter((sentence) => !HEADING_MARK.test(sentence)),
      HEADING_MARK.test(all[0] ?? ''),
    ).map((sentence, index, split) => {
      const shortest = labelsValueBelow(sentence, split[index + 1]) ? SHORTEST_FIELD : undefined;
      const reading = readSentence(sentence, shortest);
      const listed = sentence.endsWith(':') ? listAfter(text, sentence) : undefined;
      return listed === undefined ? reading : { ...reading, listed };
    }),
    title,
    titleStems: title === undefined ? [] : contentStems(title),
    headings: all.flatMap((sentence) => {
      const heading = HEADING_MARK.test(sentence) ? markdownHeading(sentence) : undefined;
      return heading ? [readSentence(heading.text, SHORTEST_FIELD)] : [];
    }),
  };
}

/**
 * A candidate has three words at least, but for a field and its value ("Parts: $325", a label over its value) and
 * a heading ("# Attachment Test", a deck's title): fewer is a fragment ("Like LanceDB's.", "Follow-up.").
 */
const SHORTEST_CANDIDATE = 3;
const SHORTEST_FIELD = 2;

function readSentence(text: string, shortestAsRead = SHORTEST_CANDIDATE): SentenceReading {
  const shortest = RECORD_LINE.test(text) ? SHORTEST_FIELD : shortestAsRead;
  return {
    text,
    stems: contentStems(text),
    key:
      words(text).length < shortest || isLinkRow(text)
        ? undefined
        : text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' '),
  };
}

/** A link's address as a badge or a link in Markdown writes it: narrower than a web address in prose (`www.`). */
const ADDRESS = /https?:\/\/[^\s)\]]+/g;

/** Two addresses or more that take up most of the line: a row of badges or links, not a sentence. */
function isLinkRow(text: string): boolean {
  const addresses = text.match(ADDRESS) ?? [];
  const length = addresses.reduce((total, address) => total + address.length, 0);
  return addresses.length >= 2 && length > text.length / 2;
}

/** A first line this short, without a final stop, titles what follows (a slide's title, a form's heading). */
const TITLE_WORDS = 12;

function passageTitle(split: string[]): string | undefined {
  const heading = split.find((sentence) => HEADING_MARK.test(sentence));
  if (heading !== undefined) return markdownHeading(heading)?.text;
  const first = split[0];
  if (first === undefined || split.length < 2 || /[.!?,;]["”’)\]]?$/.test(first) || FENCE.test(first))
    return undefined;
  const firstWords = words(first);
  // A line ending in "of" or "the" is prose wrapped onto the next line (a scanned page's), not a title.
  if (firstWords.length > TITLE_WORDS || isStopWord(firstWords.at(-1) ?? '')) return undefined;
  return first;
}

/**
 * Without a chunk's first sentence when it starts mid-sentence, and its last when that runs on without an end:
 * long prose cut at the edge. A short last line (a slide's bullet, a form's value) is whole as it is, and so is a
 * first sentence under the heading the chunk opens with ("# harbourctl" and "harbourctl is a tool that...").
 */
function wholeSentences(split: string[], underHeading: boolean): string[] {
  if (split.length <= 1) return split;
  const first = split[0] ?? '';
  // A `name: value` line (a JSON leaf, a header) may start lower-case and still be whole.
  const cutFirst = !underHeading && /^[\p{Ll},;:)\]]/u.test(first) && !RECORD_LINE.test(first);
  const start = cutFirst ? 1 : 0;
  const last = split.at(-1) ?? '';
  const cut = !/[.!?:]["”’)\]]?$/.test(last) && !FENCE.test(last) && words(last).length > CUT_SENTENCE_WORDS;
  return split.slice(start, Math.max(start, cut ? split.length - 1 : split.length));
}

/** A last line longer than this without a final stop is taken for a sentence cut at the chunk's edge. */
const CUT_SENTENCE_WORDS = 25;
