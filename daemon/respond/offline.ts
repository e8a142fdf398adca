import { dateExtentAsked } from '../text/answer-kind.ts';
import { furthestDated } from '../text/dates.ts';
import { followUpContext } from '../text/follow-up.ts';
import type { Heading } from '../text/headings.ts';
import { FENCE, LIST_ITEM, paragraphs, RECORD_LINE } from '../text/sentences.ts';
import { isStopWord as isFunctionWord, term, wordCount, words } from '../text/words.ts';
import { type Answerability, answerabilityFeatures, answers, termsHeld } from './answerability.ts';
import {
  answeredFor,
  type Candidate,
  candidateSentences,
  labelledValue,
  labelOf,
  placedFrom,
  repeats,
  sectionOf,
  sourceOf,
  sourcesNamingAll,
  titleOf,
} from './candidates.ts';
import { citationNumbers, citedSources, sourceKey } from './citations.ts';
import { writesContactFor } from './contacts.ts';
import { contentStems, isStopWord } from './content-words.ts';
import { withDefinitions } from './defined-terms.ts';
import { type Finding, rankSentences } from './extract.ts';
import { asksHowToDo, firstFindingFirst, instructs, negates } from './first-finding.ts';
import {
  acronymAnswer,
  affiliationAnswer,
  askedInSource,
  definitionSentences,
  headerAnswer,
  overviewSentences,
  titlePageLines,
} from './lead-answer.ts';
import { namingSentence } from './naming.ts';
import { buildPrompt } from './prompt.ts';
import { type Question, readQuestion } from './question.ts';
import { type SentenceScorer, softmaxShares } from './sentence-model.ts';
import { SENTENCE_WEIGHTS } from './sentence-weights.ts';
import { countTokens, usageOf } from './tokens.ts';
import type {
  ContextPassage,
  HistoryMessage,
  ReplyEvent,
  ReplyRequest,
  Responder,
  TitleInput,
} from './types.ts';

export const notFoundReply = 'I could not find this in the sources.';

/** Passages the retriever itself scored this low are noise, whatever their words. */
const MINIMUM_PASSAGE_SCORE = 0.02;
/** The share of the question a sentence must hold to be quoted as the nearest to an answer not found. */
const NEAREST_COVERAGE = 0.25;
/** How many of the closest sources a reply that found nothing names. */
const CLOSEST_SOURCES = 2;
const wordsPerDelta = 3;
/**
 * The most words of a sentence that closes the best one's thought, or of a best sentence that only heads its list
 * item or paragraph (`closingSentence`).
 */
const SHORT_WORDS = 8;
/**
 * The most words of the sentence going on with the value of a record keyed by a name or a path (`closingSentence`,
 * `keyedRecord`): a quote of a JSON leaf is one thing said, whose second sentence is often its point ("I like to
 * remember what my father taught me. That at one point or another, we were all new to this world.").
 */
const RECORD_VALUE_WORDS = 20;
/** The most words of the sentence saying what to do after one saying what does not, or what is (`closingSentence`). */
const WHAT_TO_DO_WORDS = 45;
/** The words asking how far dates reach, which no passage holds: the rest of the question names its topic. */
const DATE_EXTENT_TERMS = new Set(contentStems('how far back recent up to date go'));
/**
 * The share of the topic's terms (a follow-up's earlier ones at half weight) the first source's passages must hold
 * for its dates to answer. It is low, as a change log does not say what it records: after "What does Tika's change
 * log record?", Tika's change log holds 0.2 of "and how far back do its records go?" (only "Tika"). It turns away
 * a question sharing nothing with the source ("how far back does the ocean temperature series go?"), not one
 * sharing a word in three.
 */
const DATE_EXTENT_TOPIC_HELD = 0.15;

/** The sentence model and how a reply is put together from its ranking. */
export interface SentenceModel extends SentenceScorer {
  composition: Composition;
}

/** How a reply is put together from the ranked sentences; fitted with the sentence model. */
export interface Composition {
  /** Whether the passages answer what was asked at all (fitted to turn away off-topic questions). */
  answerability: Answerability;
  /**
   * Supporting sentences are added, best first, until the reply holds this much of the model's probability that
   * a sentence answers: a sure answer stands alone, an unsure one brings the next likeliest along...
   */
  confidence: number;
  /** ...while the reply stays this short... */
  longestReplyWords: number;
  /** ...and has at most this many sentences... */
  mostSentences: number;
  /**
   * ...each scoring at least this: more than the best sentence of nearly every off-topic question, so an unsure
   * answer brings along sentences about the question, not ones sharing a word with it from another source.
   */
  supportingScore: number;
  /**
   * A passage the retriever scored within this of the first nearly ties it, and retrieval cannot tell which of
   * the two answers: the reply quotes the best sentence of such a passage too, when it holds some of the question.
   * On the retriever's scale, so chosen with the retriever's scores.
   */
  tiedPassageGap: number;
}

export interface OfflineReply {
  text: string;
  /** The passages cited, in the order of the reply's sources: `[n]` names the n-th. */
  usedPassages: number[];
}

/**
 * The built-in responder for when no language model is configured: it answers by extraction, with
 * the passage sentences that best match the question, so it needs no network and invents nothing.
 */
export function createOfflineResponder(): Responder {
  async function* reply(request: ReplyRequest, options: { signal: AbortSignal }): AsyncGenerator<ReplyEvent> {
    const answer = composeReply(request.question, request.passages, request.history);
    for (const delta of toDeltas(answer.text)) {
      options.signal.throwIfAborted();
      yield { type: 'text-delta', delta };
    }
    // What a model would have been sent, so usage figures compare across responders.
    const prompt = buildPrompt(request, { contextTokens: Number.POSITIVE_INFINITY, replyTokens: 0 });
    yield {
      type: 'finish',
      usage: usageOf(prompt.promptTokens, countTokens(answer.text)),
      usedPassages: answer.usedPassages,
    };
  }

  async function title(input: TitleInput, options: { signal: AbortSignal }): Promise<string> {
    options.signal.throwIfAborted();
    return offlineTitle(input.message);
  }

  return { reply, title };
}

/**
 * The sentence that best answers the question, whole, then supporting sentences while the answer is uncertain,
 * each cited by its source's number in the reply's sources. A follow-up ("and who funded it?") is read with the
 * question it follows; a request for an overview is answered with the first passage's opening sentences, and a
 * question what something or who someone is with the sentence defining it. When the passages hold little of the
 * question, it says so and names the closest sources.
 */
export function composeReply(
  message: string,
  passages: ContextPassage[],
  history: HistoryMessage[] = [],
  model: SentenceModel = SENTENCE_WEIGHTS,
): OfflineReply {
  return composeFindings(passages, rankReply(message, passages, history, model), model.composition);
}

/** The passages' sentences ranked for a message, best first, and what tells whether they answer it at all. */
export interface Ranking {
  findings: Finding[];
  /** What tells whether the passages answer it (`ANSWERABILITY_FEATURES`), when there is a best sentence. */
  features?: number[];
  /**
   * For a question about how far a source's dates reach ("how far back does it go?"), the sentence of the first
   * source naming its oldest (or newest) date: the answer read off the question's form rather than scored.
   */
  dateExtentAnswer?: Candidate;
  /**
   * For a request for an overview of a source, the sentences its opening passage begins with; for a question what
   * something or who someone is, the sentence defining it and those after it, in their passage's order; for one what
   * an acronym stands for, the sentence defining it; for a question a source asks itself in the same words, that
   * question, quoted with its answer; for a question who sent a message, or when, its header; for one asking a
   * document's title, the heading its first chunk opens with; for one who wrote a paper or a story, or gave a deck,
   * its byline; for one when or where a deck was given, its title slide's lines saying so; for one where a paper's
   * authors work, the institutions its title page names.
   */
  leadAnswer?: Candidate[];
  /**
   * The best sentence, when its source holds every name the question uses: what a reply that could not find the
   * answer offers as the nearest to one. Not a sentence about another "Paris" or another lake than the one asked of.
   */
  nearest?: Candidate;
  /**
   * The nearest (above), of the first passage's source, when it writes the way to reach what the question asks about
   * (contacts.ts `writesContactFor`): "Peter Shepherd (Project Director) pshepherd@projectcounter.org" for "What
   * email address can I use to reach COUNTER's project director?".
   */
  contactAnswer?: Candidate;
  /** The heading over the best sentence, when it names the release a question asks about and the sentence does not. */
  title?: Candidate;
  /** The sentence after the best one that belongs to its thought (`closingSentence`), quoted with it. */
  closing?: Candidate;
  /** Sentences under another heading than the best one's, never quoted beside it (`otherSections`). */
  otherSections?: ReadonlySet<Candidate>;
}

/** The passages' sentences ranked for a message, read with the conversation it follows. */
export function rankReply(
  message: string,
  passages: ContextPassage[],
  history: HistoryMessage[],
  scorer: SentenceScorer,
): Ranking {
  const relevant = relevantPassages(passages);
  const question = readQuestion(message, followUpContext(history, message));
  const leadAnswer =
    overviewSentences(message, relevant) ??
    definitionSentences(message, relevant) ??
    acronymAnswer(message, relevant) ??
    askedInSource(question, relevant) ??
    headerAnswer(question, relevant) ??
    titlePageLines(question, relevant) ??
    affiliationAnswer(question, relevant);
  if (leadAnswer) return { findings: [], leadAnswer };
  // Answered for the question's names first: the rules putting a finding first read what it is quoted with.
  const scored = answeredForNames(question, rankSentences(question, relevant, scorer));
  const ranked = firstFindingFirst(question, scored);
  const findings = question.confirms
    ? ranked.filter((finding) => holdsWhatIsAsked(question, finding.candidate))
    : ranked;
  const best = findings[0];
  if (!best) return { findings };
  // Whether the passages answer is read off the model's best, as it was fitted: a line put first for the question's
  // form ("Mobile:+229 97292685" for a phone number) may hold none of its words.
  const kept = new Set(findings);
  const modelBest = scored.find((finding) => kept.has(finding)) ?? best;
  const nearest =
    best.coverage >= NEAREST_COVERAGE && namesAllHeld(question, findings, best) ? best.candidate : undefined;
  const contactAnswer =
    nearest && sourceKey(nearest.passage) === sourceKey(relevant[0]!) && writesContactFor(question, nearest)
      ? nearest
      : undefined;
  const ranking = {
    findings,
    features: answerabilityFeatures(question, relevant, modelBest),
    ...(nearest ? { nearest } : {}),
    ...(contactAnswer ? { contactAnswer } : {}),
  };
  const title = releaseTitle(question, best.candidate);
  const dateExtentAnswer = furthestDatedSentence(question, message, relevant);
  const closing = closingSentence(question, findings) ?? namingSentence(findings);
  const elsewhere = otherSections(question, findings);
  return {
    ...ranking,
    ...(elsewhere.size > 0 ? { otherSections: elsewhere } : {}),
    ...(title ? { title } : {}),
    ...(dateExtentAnswer ? { dateExtentAnswer } : {}),
    ...(closing ? { closing } : {}),
  };
}

/**
 * The sentence after the best one that belongs to its thought, quoted with it even beside a sure answer: it costs a
 * few words, and the reply reads on as the source does. It follows the best in its paragraph (not after a heading,
 * nor as the next list item), and either
 * - ends the best one's thought: "They simply became music." after "He said that Mozart, Beethoven, and Chopin never
 *   died."; "Disable via {"extractPreviews": false}." after a parser's feature. It is ranked second, is short, and
 *   holds words of the question itself, not only leans on them ("It is a highly reactive nonmetal." adds nothing
 *   to "What is the atomic number of oxygen?");
 * - or says what a short best sentence heading its list item or paragraph means, holding some of the question:
 *   "* tika-app's batch mode is gone." alone answers nothing of "what should I use instead?", the item's next
 *   sentence does. One holding none of the question says something else ("Photography is not allowed in the east
 *   wing." after "The museum opens at 9 am.");
 * - or goes on with the value of a record the best one opens, on its line (`RECORD_VALUE_WORDS`);
 * - or, for a question asking how to do something, says what to do after a best one saying what does not happen.
 */
function closingSentence(question: Question, findings: Finding[]): Candidate | undefined {
  const best = findings[0]?.candidate;
  if (!best) return undefined;
  const next = findings.find(({ candidate }) => placedFrom(candidate, best, 1))?.candidate;
  if (!next || LIST_ITEM.test(next.sentence) || repeats(next, best)) return undefined;
  const run = `${best.sentence} ${next.sentence}`;
  const paragraph = paragraphs(best.passage.text)
    .map((text) => text.replace(/\s+/g, ' ').trim())
    .find((text) => text.includes(run));
  if (paragraph === undefined) return undefined;
  const opens = LIST_ITEM.test(best.sentence) || paragraph.startsWith(best.sentence);
  // Words of the question it holds itself, not only leans on through the best one.
  const holdsAsked = [...question.terms.keys()].some((term) => next.stems.has(term));
  const heads = opens && quotedWords(best) <= SHORT_WORDS && holdsAsked;
  const endsThought = next === findings[1]?.candidate && quotedWords(next) <= SHORT_WORDS && holdsAsked;
  // A record's value is one thing said, a JSON leaf's quote: "...quote: Dreams don't mean anything. They're just noise."
  const goesOnRecord =
    RECORD_LINE.test(best.sentence) &&
    quotedWords(next) <= (keyedRecord(best.sentence) ? RECORD_VALUE_WORDS : SHORT_WORDS) &&
    best.passage.text.includes(run);
  // Asked how to do something, a sentence saying what does not happen, or what is the case, is followed by what to
  // do: "...make a change to the ini file, it will NOT be reflected. To refresh the blog's cache, visit your blog
  // with ?reinit=1..."; "...emit Markdown content by default instead of XHTML/XML. Request the previous format
  // explicitly: tika-app -x/--xml...".
  const saysWhatToDo =
    asksHowToDo(question) &&
    !negates(next.sentence) &&
    (negates(best.sentence) || (instructs(next.sentence) && !instructs(best.sentence))) &&
    quotedWords(next) <= WHAT_TO_DO_WORDS;
  return heads || endsThought || goesOnRecord || saysWhatToDo ? next : undefined;
}

/**
 * The sentences of the best one's source that sit outside its section, when the best one's heading names what is
 * asked and theirs does not: asked how Mammoth converts italic text, the read-me's section on bold is about
 * something else, however alike its sentences ("For instance, to wrap bold text in `<em>` tags:"). A subsection of
 * the best one's section is in it ("### Example" under "## Italic text").
 */
function otherSections(question: Question, findings: Finding[]): Set<Candidate> {
  const best = findings[0]!.candidate;
  const section = sectionOf(best).at(-1);
  if (section === undefined || !namesAsked(question, section.text)) return new Set();
  const inSection = (heading: Heading) => heading.level === section.level && heading.text === section.text;
  const elsewhere = findings.filter(({ candidate }) => {
    if (sourceOf(candidate) !== sourceOf(best)) return false;
    const path = sectionOf(candidate);
    const heading = path.at(-1);
    return heading !== undefined && !path.some(inSection) && !namesAsked(question, heading.text);
  });
  return new Set(elsewhere.map(({ candidate }) => candidate));
}

function namesAsked(question: Question, heading: string): boolean {
  return contentStems(heading).some((stem) => question.terms.has(stem));
}

/**
 * "Which Tika release made loading the media type registry faster?" is answered by a changelog's line under the
 * heading naming the release ("Release 1.1 - 3/7/2012"): the title over the best sentence, when the question asks
 * which release or version and the title names one the sentence does not.
 */
function releaseTitle(question: Question, best: Candidate): Candidate | undefined {
  const asked = RELEASE_ASKED.exec(question.text)?.[1];
  if (asked === undefined) return undefined;
  const release = term(asked.toLowerCase());
  if (best.stems.has(release)) return undefined;
  const title = titleOf(best);
  return title?.stems.has(release) ? title : undefined;
}

/** "Which release...", "In what version of Tika...", "which Tika release": what a changelog's headings name. */
const RELEASE_ASKED = /\b(?:which|what)\s+(?:[\p{L}\d.-]+\s+){0,2}?(release|version)s?\b/iu;

/** The findings, each question a source asks itself answered for what the user's question names (`answeredFor`). */
function answeredForNames(question: Question, ranked: Finding[]): Finding[] {
  const candidates = ranked.map((finding) => finding.candidate);
  return ranked.map((finding) => {
    const candidate = answeredFor(question.names, finding.candidate, candidates);
    return candidate === finding.candidate ? finding : { ...finding, candidate };
  });
}

/** Whether the best sentence's source holds every name the question uses, in any of its sentences found. */
function namesAllHeld(question: Question, findings: Finding[], best: Finding): boolean {
  const candidates = findings.map((finding) => finding.candidate);
  return sourcesNamingAll(candidates, question.names).has(sourceOf(best.candidate));
}

/**
 * Whether a sentence holds a word of what a yes/no question asks about, beyond the names it asks it of: "Does
 * Breezy Cove have a dock?" is answered by "...Gas Grill, Fire Pit, Cannoe, Dock...", not by "Send email Inquiry
 * for Breezy Cove"; "Is there a hot tub at Breezy Cove?" by none. A question of names alone asks nothing else.
 */
function holdsWhatIsAsked(question: Question, candidate: Candidate): boolean {
  const asked = [...question.terms].filter(([term, weight]) => weight === 1 && !question.names.has(term));
  return asked.length === 0 || asked.some(([term]) => candidate.stems.has(term));
}

/**
 * For a question about where a source's dates begin or end, the sentence or line of the first source naming its
 * oldest (or newest) date: any, a dated heading too, whatever words of the question it holds, once the source holds
 * the question's topic.
 */
function furthestDatedSentence(
  question: Question,
  message: string,
  relevant: ContextPassage[],
): Candidate | undefined {
  const extent = dateExtentAsked(message);
  const first = relevant[0];
  if (!extent || !first) return undefined;
  const ofFirstSource = relevant.filter((passage) => passage.sourceId === first.sourceId);
  const topic = [...question.terms].filter(([term]) => !DATE_EXTENT_TERMS.has(term));
  const held = new Set(ofFirstSource.flatMap((passage) => contentStems(passage.text)));
  if (termsHeld(topic, held) < DATE_EXTENT_TOPIC_HELD) return undefined;
  return furthestDated(candidateSentences(ofFirstSource), (candidate) => candidate.sentence, extent)?.item;
}

/** The passages a reply may quote: the sentence model is trained on these too. */
export function relevantPassages(passages: ContextPassage[]): ContextPassage[] {
  return passages.filter((passage) => passage.score >= MINIMUM_PASSAGE_SCORE);
}

/**
 * The reply made of ranked sentences: the best, whole, and the next likeliest while the answer is uncertain, with
 * the sentence defining a term they refer to ("the License").
 */
export function composeFindings(
  passages: ContextPassage[],
  {
    findings,
    features,
    dateExtentAnswer,
    leadAnswer,
    nearest,
    contactAnswer,
    title,
    closing,
    otherSections,
  }: Ranking,
  composition: Composition,
): OfflineReply {
  if (leadAnswer) return cite(passages, leadAnswer);
  const best = findings[0];
  if (!best || best.coverage === 0) return notFound(passages);
  // The answerability score is fitted to sentences that match a question's words, which the oldest date's line
  // does not: whether its source holds the question's topic decided (furthestDatedSentence).
  if (dateExtentAnswer) return cite(passages, [dateExtentAnswer]);
  // The answerability score is fitted to sentences holding a question's words, which a line writing an address or a
  // number holds few of: one writing the way to reach what was asked answers (contacts.ts `writesContactFor`).
  if (!features || !(contactAnswer || answers(composition.answerability, features)))
    return notFound(passages, nearest);
  const relevant = relevantPassages(passages);
  // A value is quoted with the label introducing it: a code block after "To convert a file, use `convertToHtml`:".
  let read: Candidate[] | undefined;
  const candidates = () => (read ??= candidateSentences(relevant));
  const answering = [best, ...supportingFindings(findings, best, composition, { closing, otherSections })];
  const quotedWithLabels = [
    ...answering,
    ...tiedPassageFindings(relevant, findings, answering, composition.tiedPassageGap),
  ].map(({ candidate }) => labelOf(candidate, candidates) ?? candidate);
  const chosen = [...(title ? [title] : []), ...quotedWithLabels].filter(
    // One sentence of one passage, however many times it was read.
    (candidate, index, all) => all.findIndex((other) => placedFrom(other, candidate, 0)) === index,
  );
  return cite(
    passages,
    withDefinitions(
      chosen,
      findings.map((finding) => finding.candidate),
    ),
  );
}

/**
 * The next likeliest sentences, until the reply is likely enough to hold the answer: each holds some of the
 * question, fits the reply's length and says something else. Scores are logits of one softmax over the
 * candidates, as the model was trained.
 */
function supportingFindings(
  findings: Finding[],
  best: Finding,
  composition: Composition,
  {
    closing,
    otherSections,
  }: { closing?: Candidate | undefined; otherSections?: ReadonlySet<Candidate> | undefined },
): Finding[] {
  const probabilities = softmaxShares(findings.map((finding) => finding.score));
  const chosen = [best];
  let held = probabilities[0]!;
  let budget = composition.longestReplyWords - quotedWords(best.candidate);
  const closingAt = findings.findIndex((finding) => finding.candidate === closing);
  if (closingAt > 0 && quotedWords(closing!) <= budget) {
    chosen.push(findings[closingAt]!);
    held += probabilities[closingAt]!;
    budget -= quotedWords(closing!);
  }
  for (const [position, finding] of findings.entries()) {
    if (position === 0 || position === closingAt) continue;
    if (held >= composition.confidence || chosen.length >= composition.mostSentences) break;
    if (finding.score < composition.supportingScore) break;
    const length = quotedWords(finding.candidate);
    if (
      finding.coverage === 0 ||
      otherSections?.has(finding.candidate) ||
      length > budget ||
      chosen.some((other) => repeats(finding.candidate, other.candidate))
    )
      continue;
    chosen.push(finding);
    held += probabilities[position]!;
    budget -= length;
  }
  return chosen.slice(1);
}

/**
 * The best sentence of each passage that nearly ties the first and is not quoted yet (`tiedPassageGap`), the
 * closest first and at most `MOST_TIED_PASSAGES` of them, when it holds some of the question and says something
 * else.
 */
function tiedPassageFindings(
  passages: ContextPassage[],
  findings: Finding[],
  chosen: Finding[],
  gap: number,
): Finding[] {
  const top = Math.max(...passages.map((passage) => passage.score));
  const quoted = new Set(chosen.map((finding) => finding.candidate.passage.number));
  const tied = passages
    .filter((passage) => passage.score >= top - gap && !quoted.has(passage.number))
    .sort((left, right) => right.score - left.score);
  const added: Finding[] = [];
  for (const passage of tied) {
    if (added.length === MOST_TIED_PASSAGES) break;
    const finding = findings.find((other) => other.candidate.passage.number === passage.number);
    if (!finding || finding.coverage === 0) continue;
    if (![...chosen, ...added].some((other) => repeats(finding.candidate, other.candidate)))
      added.push(finding);
  }
  return added;
}

/**
 * Over the 5,397 SQuAD questions of the shared half, quoting the best sentence of one tied passage held the answer
 * for 0.830 of replies, of two 0.836, of every one 0.840: more for replies of up to 350 words (from 190).
 */
const MOST_TIED_PASSAGES = 2;

/**
 * Sentences of one source, followed once by the source's number in the reply's sources: the first chosen (the
 * best, or the definition of a term it uses) first, then the rest, each passage's in their own order and the
 * passages in the order chosen. A changelog's heading answering "when" comes before the line under it.
 */
function cite(passages: ContextPassage[], chosen: Candidate[]): OfflineReply {
  const cited = citedSources(
    passages,
    chosen.map((candidate) => candidate.passage.number),
  );
  const usedPassages = cited.map((passage) => passage.number);
  const numbers = citationNumbers(
    passages,
    chosen.map((candidate) => candidate.passage.number),
  );
  const groups = new Map<number, Candidate[]>();
  // A passage's place is that of its first sentence chosen.
  const passageOrder = new Map<number, number>();
  chosen.forEach((candidate, place) => {
    const number = numbers.get(candidate.passage.number)!;
    groups.set(number, [...(groups.get(number) ?? []), candidate]);
    if (!passageOrder.has(candidate.passage.number)) passageOrder.set(candidate.passage.number, place);
  });
  const text = [...groups.entries()]
    .map(([number, [leading, ...rest]]) => {
      const following = rest.sort(
        (left, right) =>
          passageOrder.get(left.passage.number)! - passageOrder.get(right.passage.number)! ||
          left.position - right.position,
      );
      return runOn([...[leading!, ...following].map(quoted), `[${number}]`]);
    })
    .join(' ')
    .trimStart();
  return { text, usedPassages };
}

/**
 * "Could not find", naming the closest sources and quoting the sentence that came nearest to answering when the
 * closest holds it: a question put in other words than its answer's ("What was the sender setting up?" for "to
 * set-up a GTD system") is turned away too, and then the user still sees what the sources say.
 */
function notFound(passages: ContextPassage[], nearest?: Candidate): OfflineReply {
  const closest = citedSources(
    passages,
    passages.map((passage) => passage.number),
  ).slice(0, CLOSEST_SOURCES);
  if (closest.length === 0) return { text: notFoundReply, usedPassages: [] };
  const names = closest.map((passage) =>
    passage.page > 1 ? `${passage.sourceName} (p. ${passage.page})` : passage.sourceName,
  );
  const text = `${notFoundReply} The closest passages are in ${names.join(' and ')}.`;
  const usedPassages = closest.map((passage) => passage.number);
  if (!nearest || sourceKey(nearest.passage) !== sourceKey(closest[0]!)) return { text, usedPassages };
  return { text: runOn([text, 'The nearest to an answer:', quoted(nearest), '[1]']), usedPassages };
}

/** Whether a reply says it could not find the answer (whatever it quotes after). */
export function isNotFound(reply: string): boolean {
  return reply.startsWith(notFoundReply);
}

/**
 * A sentence as the reply quotes it: without the mark of a list item; ending with a stop; followed by what it
 * introduces when it is a label ("Deadline for submission:" and its date on the next line); with the document's
 * own bracketed reference numbers ("[7]") in parentheses, so that every `[n]` of a reply is one of its citations.
 * A fenced code block stands on lines of its own, as the source has it, without a stop after it.
 */
function quoted(candidate: Candidate): string {
  const value = labelledValue(candidate);
  const text = runOn(
    [candidate.sentence, ...(value === undefined ? [] : [value])].map((part) =>
      // In code an index keeps its brackets, spaced out of a citation's form: `rows[ 1 ]` means `rows[1]`. A range
      // ("[0-9]", "app[1-3].log") is no citation, and spaced would mean another thing.
      FENCE.test(part)
        ? `\n${part.replace(CITATION_FORM, '[ $1 ]')}\n`
        : part.replace(LIST_ITEM, '').replace(BRACKETED_NUMBERS, '($1)'),
    ),
  );
  return text.endsWith('\n') ? text : withFullStop(text);
}

/** The document's own bracketed reference numbers: "[7]", "[3, 4]", "[2–5]". */
const BRACKETED_NUMBERS = /\[(\d+(?:\s*[,–-]\s*\d+)*)\]/g;
/** What a reader of a reply takes for its citations: "[7]", "[3, 4]". */
const CITATION_FORM = /\[(\d+(?:\s*,\s*\d+)*)\]/g;

/** Quoted pieces run on in one line, but a fenced code block stands on lines of its own (`quoted`). */
function runOn(pieces: string[]): string {
  return pieces.reduce((text, piece) =>
    text.endsWith('\n') || piece.startsWith('\n') ? `${text}${piece}` : `${text} ${piece}`,
  );
}

/**
 * Whether a record (`RECORD_LINE`, which the caller has matched: the sentence holds ": ") has a key that is a name or
 * a path, holding no function word (`main.characters."Dolores Abernathy"[6].quote:`, "LGPL v3.0:"), rather than
 * being a sentence introducing what follows its colon ("In Berlin, the Huguenots created two new neighbourhoods:").
 */
function keyedRecord(sentence: string): boolean {
  const key = sentence.slice(0, sentence.indexOf(': '));
  return !words(key).some((word) => isFunctionWord(word));
}

/** A sentence's length as quoted: with the value or list it introduces. */
function quotedWords(candidate: Candidate): number {
  return wordCount(candidate.sentence) + wordCount(labelledValue(candidate) ?? '');
}

function withFullStop(sentence: string): string {
  return /[.!?]["”’)]?$/.test(sentence) ? sentence : `${sentence}.`;
}

/** Word-sized pieces, a few words each, that concatenate back to the text exactly. */
export function toDeltas(text: string): string[] {
  const pieces = text.match(/\s*\S+\s*/g) ?? [text];
  const deltas: string[] = [];
  for (let index = 0; index < pieces.length; index += wordsPerDelta) {
    deltas.push(pieces.slice(index, index + wordsPerDelta).join(''));
  }
  return deltas;
}

const leadingQuestion =
  /^(?:(?:please|can you|could you|tell me|explain|describe|summari[sz]e)\s+(?:about\s+)?)?(?:what|which|who|whom|whose|when|where|why|how(?:\s+(?:many|much|long|often|old|far))?)?\s*(?:is|are|was|were|do|does|did|can|could|should|would|will|has|have|had)?\s*(?:the|a|an)?\s+/i;
/** "How fast was...", "How tall is...": the word after "how" is what is asked, so the question stays whole. */
const MEASURING =
  /^how\s+(?!(?:many|much|long|often|old|far)\b)\p{L}+\s+(?:is|are|was|were|do|does|did|can|could|will|would)\b/iu;
/** "What happens if ...": what follows is the topic. */
const WHAT_HAPPENS = /^what\s+happens\s+(?:if|when)\s+/i;
/** A subject left opening the title once the question's opening is gone ("Where can I download ..."). */
const SUBJECT = /^(?:i|we|you|they)\s+/i;
const smallWords = new Set([
  'a',
  'an',
  'and',
  'as',
  'at',
  'but',
  'by',
  'for',
  'in',
  'of',
  'on',
  'or',
  'the',
  'to',
  'vs',
  'with',
]);

/** The key words of the first question, capitalised, at most 8 of them. */
export function offlineTitle(message: string): string {
  const firstLine = message.trim().split(/\n|(?<=[?!.])\s/)[0] ?? '';
  const stripped = ` ${firstLine}`.replace(/[?!.:;,]+$/, '').trim();
  const rest = MEASURING.test(stripped)
    ? stripped
    : stripped.replace(WHAT_HAPPENS, '').replace(leadingQuestion, '').replace(SUBJECT, '').trim() || stripped;
  let titleWords = rest.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word));
  if (titleWords.length > 8) titleWords = titleWords.filter((word) => !isStopWord(word.toLowerCase()));
  titleWords = titleWords.filter(
    (word, index) => word.toLowerCase() !== titleWords[index - 1]?.toLowerCase(),
  );
  const title = titleWords
    .slice(0, 8)
    .map((word, index) =>
      index > 0 && smallWords.has(word.toLowerCase()) ? word.toLowerCase() : capitalise(word),
    )
    .join(' ');
  return title || 'New conversation';
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
