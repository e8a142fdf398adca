import { countTokens } from './tokens.ts';
import type { ContextPassage, HistoryMessage, ReplyRequest } from './types.ts';

export interface PromptMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface PromptBudget {
  /** The model's whole context window, in tokens. */
  contextTokens: number;
  /** Tokens kept free for the reply. */
  replyTokens: number;
}

export interface BuiltPrompt {
  messages: PromptMessage[];
  /** o200k count of the messages, with the per-message framing chat models add. */
  promptTokens: number;
  /** How many of the oldest history messages did not fit. */
  droppedHistory: number;
}

/** Chat formats wrap every message in a few framing tokens (role, separators). */
const messageOverheadTokens = 4;

const answerInstructions = [
  'Answer the question using only the numbered context passages below.',
  'Cite the passages you rely on with their numbers in square brackets, such as [1] or [2][3], right after the statement they support.',
  'Be concise: give the answer first, then only the detail that supports it.',
  'If the passages do not contain the answer, say that you could not find it in the sources; do not guess.',
].join(' ');

export function formatPassage(passage: ContextPassage): string {
  const location = passage.url
    ? `${passage.sourceName}, page ${passage.page}, ${passage.url}`
    : `${passage.sourceName}, page ${passage.page}`;
  return `[${passage.number}] (source: ${location})\n${passage.text.trim()}`;
}

export function formatPassages(passages: ContextPassage[]): string {
  if (passages.length === 0) return 'Context passages: none were found for this question.';
  return `Context passages:\n\n${passages.map(formatPassage).join('\n\n')}`;
}

export function messageTokens(message: PromptMessage): number {
  return countTokens(message.content) + messageOverheadTokens;
}

/**
 * The application's system message and the answering rules, the numbered passages, as much recent
 * history as the budget allows (oldest turns go first), then the question. The question and the
 * passages are always kept: without them there is nothing to answer.
 */
export function buildPrompt(request: ReplyRequest, budget: PromptBudget): BuiltPrompt {
  const system = request.systemMessage.trim();
  const head: PromptMessage[] = [
    { role: 'system', content: system ? `${system}\n\n${answerInstructions}` : answerInstructions },
    { role: 'system', content: formatPassages(request.passages) },
  ];
  const question: PromptMessage = { role: 'user', content: request.question };
  const fixedTokens = [...head, question].reduce((sum, message) => sum + messageTokens(message), 0);
  const available = budget.contextTokens - budget.replyTokens - fixedTokens;
  const history = fitHistory(request.history, available);
  return {
    messages: [...head, ...history.kept, question],
    promptTokens: fixedTokens + history.tokens,
    droppedHistory: request.history.length - history.kept.length,
  };
}

/** Keeps the newest messages that fit in `available` tokens, whole messages only, in their order. */
export function fitHistory(
  history: HistoryMessage[],
  available: number,
): { kept: PromptMessage[]; tokens: number } {
  const kept: PromptMessage[] = [];
  let tokens = 0;
  for (let index = history.length - 1; index >= 0; index--) {
    const message = history[index];
    if (!message) continue;
    const cost = messageTokens(message);
    if (tokens + cost > available) break;
    kept.unshift({ role: message.role, content: message.content });
    tokens += cost;
  }
  // A reply without the question that prompted it misleads the model; drop such a leading orphan.
  if (kept[0]?.role === 'assistant') tokens -= messageTokens(kept.shift() as PromptMessage);
  return { kept, tokens };
}

/**
 * The passages a reply cites as `[n]` (also `[1, 2]` and `[1][2]`), most cited first, then by first
 * citation; a reply that cites none relied on all the passages it was given, best scored first.
 */
export function citedPassages(reply: string, passages: ContextPassage[]): number[] {
  const known = new Set(passages.map((passage) => passage.number));
  const counts = new Map<number, number>();
  for (const group of reply.matchAll(/\[(\d+(?:\s*,\s*\d+)*)\]/g)) {
    for (const token of (group[1] ?? '').split(',')) {
      const number = Number(token.trim());
      if (known.has(number)) counts.set(number, (counts.get(number) ?? 0) + 1);
    }
  }
  if (counts.size === 0)
    return [...passages].sort((left, right) => right.score - left.score).map((passage) => passage.number);
  // Map iteration follows first insertion, and sort is stable, so ties keep first-citation order.
  return [...counts.entries()].sort((left, right) => right[1] - left[1]).map(([number]) => number);
}

const titleInstructions =
  'Write a short title, at most 8 words, for a conversation that starts with the message below. Reply with the title alone: no quotes, no final full stop.';

export function buildTitlePrompt(message: string, passages: ContextPassage[]): PromptMessage[] {
  const sources = [...new Set(passages.map((passage) => passage.sourceName))].slice(0, 3);
  const context = sources.length > 0 ? `\n\nIt is answered from: ${sources.join(', ')}.` : '';
  return [
    { role: 'system', content: titleInstructions },
    { role: 'user', content: `${message.slice(0, 2000)}${context}` },
  ];
}

/** At most 8 words, no wrapping quotes or final punctuation, one line. */
export function tidyTitle(raw: string): string {
  const line = raw.split('\n').find((candidate) => candidate.trim().length > 0) ?? '';
  const words = line
    .replace(/^\s*title\s*:\s*/i, '')
    .replace(/^["'“”‘’*#\s]+|["'“”‘’*\s]+$/g, '')
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 8);
  return words.join(' ').replace(/[.,;:!?]+$/, '');
}
