/**
 * Requests for an overview of a source rather than for a fact in it: "Summarise the Tika change log", "Give me an
 * overview of Mammoth", "Tell me about BlogCFC", "What is this document about?". No sentence holds their framing
 * words ("summary", "overview"), which only mislead a search; what answers them is what a source opens with.
 */
import { contentTerms, hasVariant } from './words.ts';

export interface OverviewRequest {
  /** The words naming what to give an overview of ("the Tika change log"), without the request's framing. */
  topic: string;
  /** The topic's content stems, less words that only point at a source ("this document"): none for those. */
  terms: string[];
}

const POLITE = String.raw`(?:(?:please|can you|could you|would you)\s+)?`;
const BRIEF = String.raw`(?:(?:short|brief|quick|high[- ]level|general|rough)\s+)?`;
const SUMMARY = '(?:summary|overview|outline|gist|introduction|rundown|synopsis|tl;?dr)';
const OF = String.raw`(?:\s+(?:of|about|on|for))?`;

/** Each form of the request, with the topic as its `topic` group. */
const REQUEST_FORMS = [
  new RegExp(String.raw`^${POLITE}(?:summari[sz]e|outline|introduce)\s+(?<topic>.+)$`, 'i'),
  new RegExp(
    String.raw`^${POLITE}(?:give|show|write)\s+(?:me\s+|us\s+)?(?:an?\s+)?${BRIEF}${SUMMARY}${OF}\s*(?<topic>.*)$`,
    'i',
  ),
  new RegExp(String.raw`^(?:an?\s+)?${BRIEF}${SUMMARY}${OF}\s*(?<topic>.*)$`, 'i'),
  new RegExp(
    String.raw`^${POLITE}tell\s+(?:me|us)\s+(?:(?:a\s+bit|more|a\s+little)\s+)?about\s+(?<topic>.+)$`,
    'i',
  ),
  /^what(?:'s|’s|\s+is|\s+are)\s+(?<topic>.+?)\s+(?:all\s+)?about$/i,
  /^what\s+(?:does|do)\s+(?<topic>.+?)\s+(?:cover|contain|discuss|say)$/i,
];

/** A topic opening so asks a question of its own ("tell me about how images are converted"): not an overview. */
const ASKS_ITSELF = /^(?:what|which|who|whom|whose|when|where|why|how|whether|if)\b/i;

/** Words that point at a source rather than name a topic: "this document", "the file", "it". */
const POINTING = new Set(contentTerms('document file page source text article pdf doc'));

/** Whether a term points at a source rather than names a topic ("document", "file"). */
export function pointsAtSource(term: string): boolean {
  return POINTING.has(term);
}

/**
 * Whether a text (a source's name and opening, a passage) is about the topic: it holds each of the topic's terms,
 * or another form of it ("changes" for "changelog"). A topic that only points at a source is held by any.
 */
export function holdsTopic(topic: { terms: string[] }, text: string): boolean {
  const held = new Set(contentTerms(text));
  return topic.terms.every((term) => held.has(term) || hasVariant(term, held));
}

/** Such a request is short: a longer message is not read (stripping its end would cost time on it). */
const LONGEST_REQUEST = 200;

export function overviewRequested(message: string): OverviewRequest | undefined {
  if (message.length > LONGEST_REQUEST) return undefined;
  const asked = message
    .trim()
    .replace(/[?.!\s]+$/, '')
    .replace(/\s+/g, ' ');
  for (const form of REQUEST_FORMS) {
    const topic = form.exec(asked)?.groups?.['topic']?.trim();
    if (topic === undefined || ASKS_ITSELF.test(topic)) continue;
    return { topic, terms: contentTerms(topic).filter((term) => !POINTING.has(term)) };
  }
  return undefined;
}
