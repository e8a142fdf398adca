import { citationNumbers } from './citations.ts';
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

export function formatPassage(passage: ContextPassage, number: number): string {
  const location = passage.url
    ? `${passage.sourceName}, page ${passage.page}, ${passage.url}`
    : `${passage.sourceName}, page ${passage.page}`;
  return `[${number}] (source: ${location})\n${passage.text.trim()}`;
}

/**
 * The passages numbered as the reply's sources are (citations.ts): best score first, one number per source page,
 * so the `[n]` a model writes names the n-th source of its reply.
 */
export function formatPassages(passages: ContextPassage[]): string {
  if (passages.length === 0) return 'Context passages: none were found for this question.';
  const numbers = sourceNumbers(passages);
  const ordered = [...passages].sort((left, right) => numbers.get(left.number)! - numbers.get(right.number)!);
  return `Context passages:\n\n${ordered.map((passage) => formatPassage(passage, numbers.get(passage.number)!)).join('\n\n')}`;
}

function sourceNumbers(passages: ContextPassage[]): Map<number, number> {
  return citationNumbers(
    passages,
    passages.map((passage) => passage.number),
  );
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
 * The passages to list as a model's reply's sources. The model cites sources by the numbers the prompt gave them
 * (`[n]`, also `[1, 2]` and `[1][2]`); the reply lists its sources up to the highest number it cites, so each
 * `[n]` names the n-th entry, whatever it skipped. A reply that cites none relied on every passage.
 */
export function citedPassages(reply: string, passages: ContextPassage[]): number[] {
  const numbers = sourceNumbers(passages);
  const sources = new Set(numbers.values()).size;
  let highest = 0;
  for (const group of reply.matchAll(/\[(\d+(?:\s*,\s*\d+)*)\]/g)) {
    for (const token of (group[1] ?? '').split(',')) {
      const number = Number(token.trim());
      if (number >= 1 && number <= sources) highest = Math.max(highest, number);
    }
  }
  const limit = highest === 0 ? sources : highest;
  return passages.filter((passage) => numbers.get(passage.number)! <= limit).map((passage) => passage.number);
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
