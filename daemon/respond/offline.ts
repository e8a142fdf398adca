import { stem, wordCount, words } from '../text/words.ts';
import {
  answerKind,
  type Finding,
  isStopWord,
  minimumCoverage,
  rankSentences,
  shortAnswer,
} from './extract.ts';
import { buildPrompt } from './prompt.ts';
import { countTokens, usageOf } from './tokens.ts';
import type { ContextPassage, ReplyEvent, ReplyRequest, Responder, TitleInput } from './types.ts';

export const notFoundReply = 'I could not find this in the sources.';

/** A second sentence is added only when it scores nearly as well as the best and the reply stays short. */
const secondSentenceRatio = 0.7;
const longestReplyWords = 55;
const wordsPerDelta = 3;

export interface OfflineReply {
  text: string;
  usedPassages: number[];
}

/**
 * The built-in responder for when no language model is configured: it answers by extraction, with
 * the passage sentences that best match the question, so it needs no network and invents nothing.
 */
export function createOfflineResponder(): Responder {
  async function* reply(request: ReplyRequest, options: { signal: AbortSignal }): AsyncGenerator<ReplyEvent> {
    const answer = composeReply(request.question, request.passages);
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

/** A short answer when one can be picked out, then the sentence(s) supporting it, with their sources. */
export function composeReply(question: string, passages: ContextPassage[]): OfflineReply {
  const findings = rankSentences(question, passages);
  const best = findings[0];
  if (!best || best.coverage < minimumCoverage) return { text: notFoundReply, usedPassages: [] };
  const chosen = [best];
  const second = findings[1];
  if (
    second &&
    second.score >= secondSentenceRatio * best.score &&
    second.coverage >= minimumCoverage &&
    wordCount(best.sentence) + wordCount(second.sentence) <= longestReplyWords
  ) {
    chosen.push(second);
  }
  const short = shortAnswer(best.sentence, answerKind(question), new Set(words(question).map(stem)));
  const support = citeByPassage(chosen);
  return {
    text: short ? `${capitalise(short)}.\n\n${support}` : support,
    usedPassages: [...new Set(chosen.map((finding) => finding.passage.number))],
  };
}

/** Sentences of one passage run together, followed once by their citation and source. */
function citeByPassage(chosen: Finding[]): string {
  const groups = new Map<ContextPassage, string[]>();
  for (const finding of chosen) {
    groups.set(finding.passage, [...(groups.get(finding.passage) ?? []), withFullStop(finding.sentence)]);
  }
  return [...groups.entries()]
    .map(
      ([passage, sentences]) =>
        `${sentences.join(' ')} [${passage.number}] (source: ${passage.sourceName}, p. ${passage.page})`,
    )
    .join('\n\n');
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
  const rest = stripped.replace(leadingQuestion, '').trim() || stripped;
  let titleWords = rest.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word));
  if (titleWords.length > 8) titleWords = titleWords.filter((word) => !isStopWord(word.toLowerCase()));
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
