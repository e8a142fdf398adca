/**
 * Replies read off a passage's own order rather than scored sentence by sentence: a request for an overview of a
 * source (text/overview.ts) is answered with what its opening passage begins with, a question asking what
 * something or who someone is (text/definition.ts) with the sentence defining it and what follows it, a question
 * a source asks itself (a slide's "Why ROOT ?", an FAQ's) with that question and the answer after it, a question
 * asking who sent a message, or when, with its header, one asking a document's title with the heading its first
 * chunk opens with, one asking who wrote a paper or a story, or gave a deck, with its byline, one asking when or
 * where a deck was given with its title slide's lines, one asking where a paper's authors work with the
 * institutions its title page names, and one asking what an acronym stands for with the sentence defining it.
 */
import { answerOfKind } from '../text/answer-kind.ts';
import { definitionAsked, definitionTest } from '../text/definition.ts';
import { markdownHeading } from '../text/headings.ts';
import { holdsTopic, overviewRequested } from '../text/overview.ts';
import { withPlainVerbs } from '../text/plain-verbs.ts';
import { wordCount } from '../text/words.ts';
import { acronymAsked, definesAcronym } from './acronyms.ts';
import {
  answeredFor,
  type Candidate,
  candidateSentences,
  followingInText,
  labelledValue,
  repeats,
  sourceOf,
  sourcesNamingAll,
  termsHeldBySourceOf,
} from './candidates.ts';
import { contentStems } from './content-words.ts';
import { type Question, readQuestion, WH, WH_WORD } from './question.ts';
import type { ContextPassage } from './types.ts';

/** Such a reply quotes sentences in order while it stays this short (its first sentence, whatever its length)... */
const LEAD_WORDS = 60;
/** ...of those with at least this many words: a badge, a label or a fragment says nothing of what a source is about. */
const LEAD_SENTENCE_WORDS = 5;
/** A line with a link in it is navigation or a badge in a source's opening more often than a sentence about it. */
const LINK = /https?:\/\/|\]\(/;

/**
 * For a request for an overview whose topic the first passage holds (any, when it points at a source: "What is
 * this document about?"), that passage's opening sentences in order, whole. The context puts the opening of the
 * source asked about first (services/answer-context.ts).
 */
export function overviewSentences(message: string, relevant: ContextPassage[]): Candidate[] | undefined {
  const overview = overviewRequested(message);
  const first = relevant[0];
  if (!overview || !first) return undefined;
  if (!holdsTopic(overview, `${first.sourceName}\n${first.text}`)) return undefined;
  const [lead, ...after] = candidateSentences([first]).filter(leads);
  return lead ? leadFrom(lead, after) : undefined;
}

/**
 * For a question asking what something or who someone is, or what it does, the first sentence of the passages, in
 * their order, that defines it (text/definition.ts), however short, and the sentences after it in its passage (not
 * after a menu's line: the next is about the next entry). None when no sentence does: the question is answered as
 * any other. The context puts the opening of a source named by the topic first (services/answer-context.ts).
 */
export function definitionSentences(message: string, relevant: ContextPassage[]): Candidate[] | undefined {
  const definition = definitionAsked(message);
  if (!definition) return undefined;
  const defines = definitionTest(definition);
  for (const passage of relevant) {
    const sentences = candidateSentences([passage]).filter(quotable);
    for (const [start, candidate] of sentences.entries()) {
      const defining = defines(candidate.sentence);
      if (defining === 'line') return [candidate];
      if (defining === 'sentence') return leadFrom(candidate, sentences.slice(start + 1).filter(leads));
    }
  }
  return undefined;
}

/**
 * For a question what an acronym stands for, the first sentence of the passages, in their order, that defines it:
 * "...and Global Control Selective Response (GCSR) [6]." for "What does GCSR stand for?". The context puts a passage
 * defining it first (services/answer-context.ts).
 */
export function acronymAnswer(message: string, relevant: ContextPassage[]): Candidate[] | undefined {
  const acronym = acronymAsked(message);
  if (acronym === undefined) return undefined;
  const defining = candidateSentences(relevant).find((candidate) =>
    definesAcronym(candidate.sentence, acronym),
  );
  return defining && [defining];
}

/**
 * For a question a source asks itself in the same words, and answers after it, that question with its answer: a
 * question answered in the sentence after it (quoted with it, candidates.ts `labelledValue`), or a heading asking
 * it, answered by what follows it. "Why did the OSU group choose ROOT?" is answered by the slide "Motivation – Why
 * ROOT ? We want a tool that is easy to use...", and "Why do publishers need usage statistics?" by the slide titled
 * "Why publishers need usage statistics -1" and its points. The source's question asks with the same wh-word (a
 * heading opens with it); all its words from there on are the question's, among them a name the question uses (or,
 * when it uses none, half as many as the question's terms, a follow-up's earlier ones included); and the source
 * holds every name the question uses.
 */
export function askedInSource(question: Question, relevant: ContextPassage[]): Candidate[] | undefined {
  const asking = whWord(question.text);
  // Most passages ask nothing: they are not split into sentences again.
  if (asking === undefined || !relevant.some((passage) => MAY_ASK.test(passage.text))) return undefined;
  const candidates = candidateSentences(relevant);
  const asked = candidates.filter((candidate) => asksTheSame(question, asking, candidate));
  if (asked.length === 0) return undefined;
  const naming = sourcesNamingAll(candidates, question.names);
  const first = asked.find((candidate) => naming.has(sourceOf(candidate)));
  if (!first?.heading) return first && [answeredFor(question.names, first, candidates)];
  const answer = answerUnder(first, candidates);
  return answer.length > 0 ? leadFrom(first, answer) : undefined;
}

/**
 * A passage that may ask something: it holds a question mark, or a line opening with a wh-word (a heading). Not
 * `\s` before it, which spans lines: a run of blank lines would be scanned again from each (quadratic time).
 */
const MAY_ASK = new RegExp(String.raw`\?|^[#\t ]*${WH}\b`, 'im');

/** A heading opening with a wh-word: "Why publishers need usage statistics -1". */
const ASKING_HEADING = new RegExp(String.raw`^\W*${WH}\b`, 'i');

/** Whether a sentence or heading asks the question in its own words and is answered after it (`askedInSource`). */
function asksTheSame(question: Question, asking: string, candidate: Candidate): boolean {
  const asks = candidate.heading
    ? ASKING_HEADING.test(candidate.sentence)
    : candidate.sentence.endsWith('?') && labelledValue(candidate) !== undefined;
  if (!asks || whWord(candidate.sentence) !== asking) return false;
  // From its wh-word on: a slide's "Motivation – Why ROOT ?" asks "Why ROOT ?". A slide's title numbers its parts
  // ("- 1"), which no question asks.
  const terms = contentStems(
    withPlainVerbs(candidate.sentence.slice(candidate.sentence.search(WH_WORD))),
  ).filter((term) => !/^\d+$/.test(term));
  if (terms.length === 0 || !terms.every((term) => question.terms.has(term))) return false;
  return question.names.size > 0
    ? terms.some((term) => question.names.has(term))
    : terms.length * 2 >= question.terms.size;
}

/** The sentences a heading stands over: those after it in its passage, each a lead's (`leads`). */
function answerUnder(heading: Candidate, candidates: Candidate[]): Candidate[] {
  return followingInText(heading, candidates)
    .map(({ candidate }) => candidate)
    .filter((candidate) => !candidate.heading && leads(candidate));
}

function whWord(text: string): string | undefined {
  return WH_WORD.exec(text)?.[0].toLowerCase();
}

/** Whether a sentence may be quoted in such a reply: no heading, link or badge. */
function quotable(candidate: Candidate): boolean {
  return !candidate.heading && !LINK.test(candidate.sentence);
}

/** Whether a sentence can lead a reply or follow in one: quotable, and no fragment. */
function leads(candidate: Candidate): boolean {
  return quotable(candidate) && wordCount(candidate.sentence) >= LEAD_SENTENCE_WORDS;
}

/** The first sentence, whatever its length, and those after it, each once, while the reply stays within its words. */
function leadFrom(first: Candidate, after: Candidate[]): Candidate[] {
  const chosen = [first];
  let budget = LEAD_WORDS - wordCount(first.sentence);
  for (const candidate of after) {
    if (chosen.some((other) => repeats(candidate, other))) continue;
    const length = wordCount(candidate.sentence);
    if (length > budget) break;
    chosen.push(candidate);
    budget -= length;
  }
  return chosen;
}

/**
 * A message's headers, as the e-mail reader writes them (ingest/extract/email.ts) and a forwarded message quotes
 * them, and what asks for each in other words: "Who sent the Western Union message?" is answered by its "From:"
 * line, which holds none of the question's words.
 */
const HEADERS_ASKED: readonly (readonly [RegExp, string])[] = [
  [/^\W*who\s+(?:sent|e-?mailed|mailed)\b|^\W*who\s+wrote\b[^?]*\b(?:e-?mail|message|letter)\b/i, 'From'],
  [
    /^\W*(?:when|(?:at|on)\s+what\s+(?:time|date|day)|what\s+(?:time|date|day))\s+(?:was|were|did)\b[^?]*\b(?:sent|send|written|write)\b/i,
    'Date',
  ],
];

/** "the original e-mail", "the forwarded message": the message a forward quotes, whose headers come after its own. */
const QUOTED_MESSAGE_ASKED = /\b(?:original|forwarded)\b/i;

/** A passage holding a message's headers: a "From:" line, which the e-mail reader writes for every message. */
const MESSAGE_HEADERS = /^From: /m;

/**
 * For a question asking who sent a message, or when, the header saying so among a message's headers: of the
 * source holding the most of the question's words (and every name it uses), the first passage's; the last of them
 * when the question asks about the original message a forward quotes.
 */
export function headerAnswer(question: Question, relevant: ContextPassage[]): Candidate[] | undefined {
  const header = HEADERS_ASKED.find(([asks]) => asks.test(question.text))?.[1];
  if (header === undefined) return undefined;
  const line = `${header}: `;
  const headers = bySourceHoldingMost(
    question,
    relevant,
    (candidate) => candidate.sentence.startsWith(line) && MESSAGE_HEADERS.test(candidate.passage.text),
  );
  const [first] = headers;
  if (first === undefined) return undefined;
  if (!QUOTED_MESSAGE_ASKED.test(question.text)) return [first];
  // The quoted message's header is the last of the first passage's: a forward's own headers come first.
  return [headers.filter((candidate) => candidate.passage === first.passage).at(-1)!];
}

/**
 * The sentences `keep` takes, of sources holding every name the question uses: those of the source holding most of
 * the question's words first, each source's in passage order. A header or an institution holds none of the
 * question's words itself; its source tells which message or paper is asked about.
 */
function bySourceHoldingMost(
  question: Question,
  relevant: ContextPassage[],
  keep: (candidate: Candidate) => boolean,
): Candidate[] {
  const candidates = candidateSentences(relevant);
  const naming = sourcesNamingAll(candidates, question.names);
  const heldBy = termsHeldBySourceOf(candidates, question.terms.keys());
  return candidates
    .filter((candidate) => naming.has(sourceOf(candidate)) && keep(candidate))
    .sort(
      (left, right) =>
        heldBy(right) - heldBy(left) ||
        left.passage.number - right.passage.number ||
        left.position - right.position,
    );
}

/**
 * "Where do the authors of the MicroStressBot paper work?", "Where are the authors from?", "Which university are the
 * authors at?", "What are the authors' affiliations?"; not "Where did the authors get their data from?".
 */
const AFFILIATION_ASKED =
  /^\W*(?:where\s+(?:do|does|did|are|is|were|was)\s+(?:the\s+)?(?:\S+\s+){0,3}?authors?(?:\s+of\s+(?:\S+\s+){0,5}?(?:paper|article|study|report|thesis)s?)?\s+(?:work|come\s+from|from|based|employed|affiliated)\b|(?:which|what)\s+(?:universit(?:y|ies)|institut(?:e|es|ion|ions)|lab(?:oratory|oratories|s)?)\s+(?:are|is|do|does|did|were|was)\b[^?]*\bauthors?\b|(?:what|which)\s+(?:is|are)\s+the\s+(?:\S+\s+){0,4}?affiliations?\b)/i;

/**
 * A line naming where a paper's authors work, as its title page writes it under their names: a superscript may be
 * glued to it ("1Department of..."), and it may be in capitals.
 */
const INSTITUTION =
  /(?<!\p{L})(?:Universit(?:y|ies|ät|é|à|at)|Universidad(?:e)?|Institut(?:e|es|o|a)?|College|Laborator(?:y|ies)|School of|Department of|Dept\.? of|Faculty of|Research Cent(?:er|re))(?!\p{L})/iu;

/** Where a paper's abstract begins: its title page's names and institutions come before. */
const ABSTRACT = /\bAbstract\b/;

/**
 * For a question where a paper's authors work, the lines naming their institutions on its title page, which hold
 * none of the question's words ("1Department of Electrical and Computer Engineering University of Illinois,
 * Chicago, USA"): lines of a first page, before its abstract when it has one, of the source holding most of the
 * question's words (and every name it uses), in their order.
 */
export function affiliationAnswer(question: Question, relevant: ContextPassage[]): Candidate[] | undefined {
  if (!AFFILIATION_ASKED.test(question.text)) return undefined;
  const [first, ...rest] = bySourceHoldingMost(
    question,
    relevant,
    (candidate) =>
      candidate.passage.page === 1 && INSTITUTION.test(candidate.sentence) && onTitlePage(candidate),
  );
  return (
    first &&
    leadFrom(
      first,
      rest.filter((candidate) => candidate.passage === first.passage),
    )
  );
}

/** What a source is, as a question about who wrote or gave it names it. */
const DOCUMENT = String.raw`(?:paper|article|story|report|document|book|essay|thesis|study|post|column|piece|manual|guide|proposal|memo|presentation|slides|slide\s+show|deck|talk|lecture|seminar|webinar)s?`;
/** Words of the object before the kind of source it names ("the Snow Fall story"): none a preposition or a comma. */
const OBJECT_WORDS = String.raw`(?:the\s+|this\s+|that\s+|a\s+|an\s+)?(?:(?!(?:of|in|on|for|about|to|from|with|by|according)\b)[^\s,?]+\s+){0,6}?`;
/** The kind of source the object names, as its last word: not "post-war". */
const SOURCE_KIND = String.raw`${DOCUMENT}(?![-\w])`;
/**
 * "Who wrote the paper about MicroStressBots?", "Who is the author of the Snow Fall story?", "Who gave the COUNTER
 * presentation?", "Who is the student behind the presentation?", "Who are the authors?": a question whose object
 * is a kind of source, or that has none. Not "Who wrote the national anthem?", "Who wrote the post-war
 * constitution?", "Who wrote the anthem, according to the article?" nor "Who gave the order?", which a byline does
 * not answer, nor who wrote a message (its "From:" header, `headerAnswer`).
 */
const AUTHORSHIP_ASKED = new RegExp(
  String.raw`^\W*who\s+(?:(?:wrote|authored|gave|presented)\s+${OBJECT_WORDS}${SOURCE_KIND}|(?:is|was|are|were)\s+(?:the\s+)?(?:(?:\S+\s+){0,3}?(?:authors?|writers?|presenters?|speakers?)\s+of|(?:\S+\s+){0,2}?behind)\s+${OBJECT_WORDS}${SOURCE_KIND}|(?:is|was|are|were)\s+the\s+(?:authors?|writers?)\W*$)`,
  'i',
);

/** A byline: "By John Branch", "Written by Ada Chen and Igor Paprotny", "Authors: ...". */
const BYLINE = /^(?:by|written\s+by|authors?:)\s+(?<names>.+)$/i;

/** A name's word as a byline or a title page writes it, a superscript or a mark glued to it: "Foroutan1*", "J.". */
const NAME_WORD = /^\p{Lu}[\p{L}'’.-]*[\d*†‡]*$/u;
/** A line of names holds this many at most... */
const MOST_AUTHORS = 12;
/** ...each of this many words at most. */
const LONGEST_NAME_WORDS = 4;

/**
 * Whether a line is nothing but people's names: "Vahid Foroutan1*, Ratul Majumdar1", "Ada Chen and Igor Paprotny".
 * A title ("Spring Tides, North Quay") reads the same, so a caller asks more of the line: a "By", or an institution
 * after it.
 */
function namesOnly(line: string): boolean {
  const names = line.split(/\s*(?:,|;|\band\b|&)\s*/).filter(Boolean);
  return (
    names.length > 0 &&
    names.length <= MOST_AUTHORS &&
    names.every((name) => {
      const words = name.split(/\s+/);
      return words.length <= LONGEST_NAME_WORDS && words.every((word) => NAME_WORD.test(word));
    })
  );
}

/**
 * Whether a candidate names who wrote its source: a byline; a title page's line of names over an institution (a
 * paper's); or one opening with the line of names under a deck's title ("# Music Sound Interpreter", then
 * "Nikolaos Eleftheriadis", which the lines after it without a stop join: "...Team #6 One Man Army November 29").
 */
function namesAuthors(candidate: Candidate): boolean {
  const byline = BYLINE.exec(candidate.sentence)?.groups?.['names'];
  if (byline !== undefined) return underTitleLines(candidate) && namesOnly(byline);
  if (candidate.passage.page !== 1 || candidate.heading || !onTitlePage(candidate)) return false;
  if (namesOnly(candidate.sentence) && INSTITUTION.test(candidate.following ?? '')) return true;
  const underTitle = titleSlideLine(candidate);
  return underTitle !== undefined && namesOnly(underTitle) && candidate.sentence.startsWith(underTitle);
}

/**
 * For a candidate of a title slide (page 1, opening with a first-level heading) other than its title, the line under
 * the title: "Nikolaos Eleftheriadis" under "# Music Sound Interpreter".
 */
function titleSlideLine(candidate: Candidate): string | undefined {
  if (candidate.passage.page !== 1 || candidate.heading) return undefined;
  return lineUnderTitle(candidate.passage.text);
}

/** How far into a passage a byline is read: a title, a subtitle, then the byline ("# Snow Fall", "## The Avalanche..."). */
const BYLINE_LINES = 4;

/**
 * Whether a candidate is among the first lines of a passage that opens its document: its source's first chunk, or
 * one opening with a heading of the first level ("# Snow Fall", after a web page's navigation, in its third chunk).
 * A byline further down, under a later section's heading, is no byline of the document.
 */
function underTitleLines(candidate: Candidate): boolean {
  const { passage } = candidate;
  if (passage.chunkIndex !== 0 && lineUnderTitle(passage.text) === undefined) return false;
  return firstLines(passage.text, BYLINE_LINES).includes(candidate.sentence);
}

/** The line right after a passage's opening title (`openingTitle`). */
function lineUnderTitle(text: string): string | undefined {
  return openingTitle(text)?.under;
}

/**
 * The heading of the first level a passage opens with ("# Music Sound Interpreter"), without its mark, and the line
 * under it.
 */
function openingTitle(text: string): { title: string; under: string | undefined } | undefined {
  const [first, under] = firstLines(text, 2);
  const heading = first === undefined ? undefined : markdownHeading(first);
  return heading?.level === 1 ? { title: heading.text, under } : undefined;
}

/** A text's first lines that hold something, trimmed, read no further than they are: it is asked of each candidate. */
function firstLines(text: string, count: number): string[] {
  const lines: string[] = [];
  let from = 0;
  while (lines.length < count && from < text.length) {
    const end = text.indexOf('\n', from);
    const line = text.slice(from, end < 0 ? text.length : end).trim();
    if (line !== '') lines.push(line);
    from = end < 0 ? text.length : end + 1;
  }
  return lines;
}

/**
 * For a question who wrote a paper or a story, or gave a deck, the line naming its authors, which holds none of the
 * question's words ("By John Branch" under "Snow Fall"): the first, of the source holding most of the question's
 * words (and every name it uses).
 */
function authorshipAnswer(question: Question, relevant: ContextPassage[]): Candidate[] | undefined {
  if (!AUTHORSHIP_ASKED.test(question.text)) return undefined;
  const [byline] = bySourceHoldingMost(question, relevant, namesAuthors);
  return byline ? [byline] : undefined;
}

/** A deck, a lecture: what a question asking when or where one was given names ("talks" are as often a negotiation's). */
const DECK = String.raw`\b(?:presentations?|slides|slide\s+show|deck|lecture|seminar|webinar)\b`;
/** "When was the Music Sound Interpreter presentation given?" */
const DECK_DATE_ASKED = new RegExp(String.raw`^\W*(?:when|(?:on\s+)?what\s+(?:date|day))\b[^?]*${DECK}`, 'i');
/** "At which event was the COUNTER presentation given?", "Where was the lecture given?" */
const DECK_PLACE_ASKED = new RegExp(
  String.raw`^\W*(?:(?:at|in)\s+)?(?:which|what)\s+(?:event|conference|meeting|workshop|symposium)\b[^?]*${DECK}|^\W*where\s+(?:was|were)\b[^?]*${DECK}\s+(?:given|held|presented)\b`,
  'i',
);

/**
 * For a question when or where a deck was given, what its title slide says under its title: the line holding a
 * date ("# Music Sound Interpreter", then "Nikolaos Eleftheriadis Team #6 One Man Army November 29, 2011"), or all
 * its lines ("Richard Gedye Chair COUNTER", "UKSG March 2003"), of the source holding most of the question's words
 * (and every name it uses).
 */
function deckAnswer(question: Question, relevant: ContextPassage[]): Candidate[] | undefined {
  const date = DECK_DATE_ASKED.test(question.text);
  if (!date && !DECK_PLACE_ASKED.test(question.text)) return undefined;
  const [first, ...rest] = bySourceHoldingMost(
    question,
    relevant,
    (candidate) =>
      titleSlideLine(candidate) !== undefined &&
      (!date || answerOfKind(candidate.sentence, 'date', question.known) !== undefined),
  );
  if (first === undefined) return undefined;
  return date
    ? [first]
    : leadFrom(
        first,
        rest.filter((candidate) => candidate.passage === first.passage),
      );
}

/**
 * "What's the title on the opening slide of Rajiv's test presentation?", "What is the title of the paper?", "What is
 * the COUNTER presentation called?": a question asking a source's title, which its first line says. Not "What is
 * the title of the song in the story?", whose object is no kind of source.
 */
const TITLE_ASKED = new RegExp(
  String.raw`^\W*what(?:['’]s|\s+(?:is|was))\s+(?:the\s+)?title\s+(?:of|on)\s+(?:the\s+)?(?:(?:opening|first|title|cover)\s+(?:slide|page)\s+of\s+)?${OBJECT_WORDS}${SOURCE_KIND}\W*$|^\W*what\s+(?:is|was)\s+${OBJECT_WORDS}${SOURCE_KIND}\s+(?:called|titled|entitled)\W*$`,
  'i',
);

/**
 * For a question asking a source's title, the first-level heading its first chunk opens with ("# Attachment Test"),
 * of the source holding most of the question's words (and every name it uses). A book, a study or a paper is as
 * often what a source tells of ("His latest book, titled The Long Road Home, ..."): when a sentence of the passages
 * gives the kind of source asked about a title, the sentences are ranked as for any question.
 */
function titleAnswer(question: Question, relevant: ContextPassage[]): Candidate[] | undefined {
  const kind = TITLE_ASKED.test(question.text) ? question.text.match(SOURCE_KINDS)?.at(-1) : undefined;
  if (kind === undefined) return undefined;
  const titled = new RegExp(String.raw`\b${kind}\b.{0,60}?\b(?:titled|entitled|called|named)\b`, 'i');
  if (candidateSentences(relevant).some((candidate) => titled.test(candidate.sentence))) return undefined;
  const [title] = bySourceHoldingMost(question, relevant, opensDocumentAsTitle);
  return title ? [title] : undefined;
}

const SOURCE_KINDS = new RegExp(SOURCE_KIND, 'gi');

/**
 * Whether a candidate is the first-level heading its document's first chunk opens with. Not a later chunk's: a
 * Markdown, web or Word document numbers every chunk page 1, and a chapter opens with a first-level heading too.
 */
function opensDocumentAsTitle(candidate: Candidate): boolean {
  const { passage } = candidate;
  return (
    candidate.heading &&
    passage.page === 1 &&
    (passage.chunkIndex ?? 0) === 0 &&
    openingTitle(passage.text)?.title === candidate.sentence
  );
}

/**
 * What a source's title page or slide says that a message asks for: its title, who wrote or gave it, or when or
 * where it was given. Its answer holds none of the question's words, so a search may not reach that page (services/
 * answer-context.ts puts it first when it answers).
 */
export function titlePageAnswer(message: string, passages: ContextPassage[]): Candidate[] | undefined {
  return titlePageAsked(message) ? titlePageLines(readQuestion(message), passages) : undefined;
}

/**
 * For a question read already, the lines of a title page or slide giving a source's title, saying who wrote or gave
 * it, or when or where.
 */
export function titlePageLines(question: Question, passages: ContextPassage[]): Candidate[] | undefined {
  return (
    titleAnswer(question, passages) ?? authorshipAnswer(question, passages) ?? deckAnswer(question, passages)
  );
}

/** Whether a message asks a source's title, who wrote or gave it, or when or where it was given (`titlePageAnswer`). */
export function titlePageAsked(message: string): boolean {
  return [TITLE_ASKED, AUTHORSHIP_ASKED, DECK_DATE_ASKED, DECK_PLACE_ASKED].some((asked) =>
    asked.test(message),
  );
}

/** Whether a sentence comes before its passage's abstract, when the passage has one. */
function onTitlePage(candidate: Candidate): boolean {
  const { text } = candidate.passage;
  const abstract = ABSTRACT.exec(text)?.index;
  return abstract === undefined || text.indexOf(candidate.sentence) < abstract;
}
