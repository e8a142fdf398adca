import type { ModelName } from '../../src/api/applications.ts';
import type { Usage } from '../../src/api/conversations.ts';
import type { Passage } from '../retrieve/index.ts';

/**
 * A retrieved passage handed to the responder, as it reads it; `number` is how the reply cites it (`[number]`).
 * The passage is given as retrieval returned it, numbered, not copied into another shape.
 */
export type ContextPassage = Pick<Passage, 'sourceId' | 'sourceName' | 'page' | 'text' | 'url' | 'score'> &
  Partial<Pick<Passage, 'headings' | 'chunkIndex'>> & {
    number: number;
  };

export interface HistoryMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface ReplyRequest {
  model: ModelName;
  systemMessage: string;
  question: string;
  history: HistoryMessage[];
  passages: ContextPassage[];
}

/**
 * A streamed reply's events, one vocabulary from the responder to the route: its text as it comes, passed on as
 * it is, then what the stage yielding them finishes with. Only a route names them as its wire does (SSE
 * `chunk`/`done`, OpenAI's chunks).
 */
export type ReplyStreamEvent<Finish> = { type: 'text-delta'; delta: string } | ({ type: 'finish' } & Finish);

/** The responder's: it finishes with the usage and `usedPassages`, the passage numbers relied on, best first. */
export type ReplyEvent = ReplyStreamEvent<{ usage: Usage; usedPassages: number[] }>;

export interface TitleInput {
  model: ModelName;
  message: string;
  passages: ContextPassage[];
}

export interface Responder {
  reply(request: ReplyRequest, options: { signal: AbortSignal }): AsyncGenerator<ReplyEvent>;
  title(input: TitleInput, options: { signal: AbortSignal }): Promise<string>;
}

/**
 * The language-model provider failed or could not be reached (contract: 502 `upstream_error`).
 * The message names the provider and model and never carries a key.
 */
export class UpstreamError extends Error {
  readonly type = 'upstream_error';
  readonly provider: string;
  readonly model: string;

  constructor(message: string, details: { provider: string; model: string; cause?: unknown }) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'UpstreamError';
    this.provider = details.provider;
    this.model = details.model;
  }
}
