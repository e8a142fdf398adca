import { acronymAsked, definesAcronym } from '../respond/acronyms.ts';
import { definitionSentences, titlePageAnswer, titlePageAsked } from '../respond/lead-answer.ts';
import type { ContextPassage } from '../respond/types.ts';
import type { Passage, Retriever } from '../retrieve/index.ts';
import type { StoredChunk } from '../store/chunk-index.ts';
import type { Store } from '../store/index.ts';
import { dateExtentAsked } from '../text/answer-kind.ts';
import { datesIn, furthestDated } from '../text/dates.ts';
import { definitionAsked } from '../text/definition.ts';
import { holdsTopic, overviewRequested } from '../text/overview.ts';
import { searchApplication } from './search.ts';

/**
 * How many passages a search gives a reply as context (one more for a question about how far dates reach, for the
 * opening of a source a request asks an overview of or what it is, or for the passage defining an acronym asked about).
 */
export const CONTEXT_PASSAGES = 6;
/** How many of the sources found are read for the chunk defining an acronym asked about. */
const ACRONYM_SOURCES = 3;

/** The passages a reply is answered from, numbered from 1 as the reply cites them: conversations and chat completions share it. */
export async function retrieveContext(
  deps: { store: Store; retriever: Retriever },
  input: { applicationId: string; query: string; context: string | undefined; signal: AbortSignal },
): Promise<ContextPassage[]> {
  const opening = openingWanted(input.query);
  const query = opening?.searchedFor ?? input.query;
  const passages = await searchApplication(deps, { ...input, query, limit: CONTEXT_PASSAGES });
  const acronym = acronymAsked(input.query);
  const context = opening
    ? await withOpeningFirst(deps.store, opening, passages, input.signal)
    : acronym
      ? await withAcronymDefinedFirst(deps.store, acronym, passages, input.signal)
      : await withFurthestDated(deps.store, input.query, passages, input.signal);
  return context.map((passage, index) => ({ ...passage, number: index + 1 }));
}

/** For a request whose answer is a source's opening, what names that source and whether an opening is about it. */
interface OpeningWanted {
  /** The topic's terms: a source whose name holds them all is the one asked about. */
  terms: string[];
  /** Whether the opening chunk of the first source found is about the topic, so that source is the one asked about. */
  isAbout: (opening: Passage) => boolean;
  /** What to search for instead of the message, if anything. */
  searchedFor?: string;
}

/**
 * A request for an overview wants the opening of the source it names or points at, when its name, headings or text
 * hold the topic; a question what something is ("What is Apache Tika?") that of the source named after it, or
 * whose opening the offline reply would quote as defining it; a question asking a source's title, who wrote or gave
 * it, or when or where, that of the first source found, when the offline reply would quote its title page as saying
 * so.
 */
function openingWanted(query: string): OpeningWanted | undefined {
  const overview = overviewRequested(query);
  if (overview) {
    const isAbout = (opening: Passage) =>
      holdsTopic(overview, [opening.sourceName, ...opening.headings, opening.text].join('\n'));
    // "Give me an overview of Mammoth" is searched as "Mammoth": the framing words would find passages about
    // overviews. "What is this document about?" names no topic to search for.
    const searchedFor = overview.terms.length > 0 ? { searchedFor: overview.topic } : {};
    return { terms: overview.terms, isAbout, ...searchedFor };
  }
  const definition = definitionAsked(query);
  if (definition) {
    const isAbout = (opening: Passage) =>
      definitionSentences(query, [{ ...opening, number: 1 }]) !== undefined;
    return { terms: definition.terms, isAbout };
  }
  // The first source found's title, who wrote or gave it, and when or where, are on its title page or slide, when
  // that says so.
  if (titlePageAsked(query)) {
    const isAbout = (opening: Passage) => titlePageAnswer(query, [{ ...opening, number: 1 }]) !== undefined;
    return { terms: [], isAbout };
  }
  return undefined;
}

/**
 * The opening chunk of the source a request names first: the first source found whose name holds the topic ("the
 * Tika read-me" for tika-README.md), else the first found when its opening is about the topic ("Mammoth" for
 * Mammoth's read-me; any, for "What is this document about?"). "Tell me about the 2.0 release" names a part of a
 * change log, which the search found.
 */
async function withOpeningFirst(
  store: Store,
  wanted: OpeningWanted,
  passages: Passage[],
  signal: AbortSignal,
): Promise<Passage[]> {
  const named =
    wanted.terms.length > 0 ? passages.find((passage) => holdsTopic(wanted, passage.sourceName)) : undefined;
  const source = named ?? passages[0];
  if (!source) return passages;
  const [chunk] = await store.chunks.list(source.sourceId, source.generation, 1);
  signal.throwIfAborted();
  if (!chunk) return passages;
  const opening = chunkOf(source, chunk);
  if (!named && !wanted.isAbout(opening)) return passages;
  return firstOnce(opening, passages);
}

/**
 * For a question what an acronym stands for ("What does GCSR stand for?"), the passage defining it first: the first
 * chunk, in its source's order, that spells it out before it in brackets ("Global Control Selective Response
 * (GCSR)"), of the first sources found. A paper defines an acronym once, at its first use, and uses it in every
 * section after: the passages a search finds best are those using it most.
 */
async function withAcronymDefinedFirst(
  store: Store,
  acronym: string,
  passages: Passage[],
  signal: AbortSignal,
): Promise<Passage[]> {
  // Each source's best passage, whose score the chunk put first takes (`chunkOf`).
  const sources = passages.filter(
    (passage, index) => passages.findIndex((other) => other.sourceId === passage.sourceId) === index,
  );
  for (const found of sources.slice(0, ACRONYM_SOURCES)) {
    const chunks = await store.chunks.list(found.sourceId, found.generation);
    signal.throwIfAborted();
    const defining = chunks.find((chunk) => definesAcronym(chunk.text, acronym));
    if (defining) return firstOnce(chunkOf(found, defining), passages);
  }
  return passages;
}

async function withFurthestDated(
  store: Store,
  query: string,
  passages: Passage[],
  signal: AbortSignal,
): Promise<Passage[]> {
  const furthest = await furthestDatedChunk(store, query, passages, signal);
  return furthest ? [...passages, furthest] : passages;
}

/**
 * For a question about where a document's dates begin or end ("how far back do its records go?"), the chunk of
 * the first source naming its oldest (or newest) date, unless a passage found names that date already: no words
 * of the question lead to it (a change log's first release is at the end of 155 KB). It counts as relevant as the
 * source.
 */
async function furthestDatedChunk(
  store: Store,
  query: string,
  passages: Passage[],
  signal: AbortSignal,
): Promise<Passage | undefined> {
  const extent = dateExtentAsked(query);
  const first = passages[0];
  if (!extent || !first) return undefined;
  const chunks = await store.chunks.list(first.sourceId, first.generation);
  signal.throwIfAborted();
  const furthest = furthestDated(chunks, (chunk) => chunk.text, extent);
  if (!furthest) return undefined;
  const namesIt = (passage: Passage) =>
    passage.sourceId === first.sourceId && datesIn(passage.text, furthest.order).includes(furthest.date);
  if (passages.some(namesIt)) return undefined;
  return chunkOf(first, furthest.item);
}

/** The passages with one put first, and not again where the search found it. */
function firstOnce(first: Passage, passages: Passage[]): Passage[] {
  const others = passages.filter(
    (passage) => passage.sourceId !== first.sourceId || passage.chunkIndex !== first.chunkIndex,
  );
  return [first, ...others];
}

/** Another chunk of a passage's source as a passage, scored as that passage: the search did not reach it. */
function chunkOf(found: Passage, { index, ...chunk }: StoredChunk): Passage {
  const { sourceId, sourceName, generation, score } = found;
  return { sourceId, sourceName, generation, score, chunkIndex: index, ...chunk };
}
