import type { Application } from '../../src/api/applications.ts';
import type { ReplySource, Usage } from '../../src/api/conversations.ts';
import type {
  ChatCompletion,
  ChatCompletionBody,
  ChatCompletionChunk,
  ChatMessage,
  Model,
} from '../../src/api/openai.ts';
import type { Clock } from '../clock.ts';
import { CkbError, invalidRequest, isCkbError } from '../errors.ts';
import { newId } from '../ids.ts';
import { replySources } from '../respond/citations.ts';
import {
  type ContextPassage,
  type HistoryMessage,
  type ReplyRequest,
  type ReplyStreamEvent,
  type Responder,
  UpstreamError,
} from '../respond/types.ts';
import { followUpContext, type Retriever } from '../retrieve/index.ts';
import type { Store } from '../store/index.ts';
import type { AccountRecord } from '../store/records.ts';
import { retrieveContext } from './answer-context.ts';
import type { ApplicationService } from './applications.ts';

const SOURCES_HEADING = 'Sources:';
const FOOTER = /\n\nSources:\n(?:- \[\d+\] [^\n]*(?:\n|$))+$/;

/**
 * The passages a reply relied on, by the numbers it cites them with, as a Markdown list after the reply,
 * so any chat client shows where `[2]` comes from.
 */
export function sourcesFooter(passages: readonly ContextPassage[], used: readonly number[]): string {
  const byNumber = new Map(passages.map((passage) => [passage.number, passage]));
  const lines = [...new Set(used)]
    .sort((left, right) => left - right)
    .flatMap((number) => {
      const passage = byNumber.get(number);
      if (!passage) return [];
      const where = passage.url ? ` (${passage.url})` : '';
      // One line per passage, whatever the name holds, so the list can be recognised and taken off again.
      const name = passage.sourceName.replace(/\s+/g, ' ');
      return [`- [${number}] ${name}, page ${passage.page}${where}`];
    });
  return lines.length === 0 ? '' : `\n\n${SOURCES_HEADING}\n${lines.join('\n')}`;
}

/** Clients send earlier replies back as history; their source lists would only cost tokens and mislead citations. */
export function withoutSourcesFooter(content: string): string {
  return content.replace(FOOTER, '');
}

function textOf(message: ChatMessage): string {
  if (message.content === null) return '';
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part) => part.text).join('\n');
}

/** A chat completion request checked against its application: what the responder is asked. */
export interface CompletionTurn {
  id: string;
  created: number;
  model: string;
  request: ReplyRequest;
  /** The earlier question(s) the last message follows up, searched with it. */
  followUpContext: string | undefined;
}

/** A completion finishes with its whole text (the sources footer included), its sources and usage. */
type CompletionEvent = ReplyStreamEvent<{ content: string; sources: ReplySource[]; usage: Usage }>;

export type ChatCompletionService = ReturnType<typeof createChatCompletionService>;

/**
 * The OpenAI-compatible face of an application: its model id is the application id, and each request is one
 * stateless turn (the client holds the history and sends it back), so nothing is stored.
 */
export function createChatCompletionService(deps: {
  store: Store;
  clock: Clock;
  retriever: Retriever;
  responder: Responder;
  applications: ApplicationService;
}) {
  const { store, clock, retriever, responder, applications } = deps;

  /** An application of the account, named as OpenAI names what is missing: the model. */
  async function findModel(account: AccountRecord, id: string): Promise<Application> {
    try {
      return await applications.get(account, id);
    } catch (error) {
      if (!isCkbError(error) || error.type !== 'not_found') throw error;
      throw new CkbError(
        'not_found',
        `model ${id} does not exist: a model is the id of one of your applications (GET /v1/models lists them)`,
        { param: 'model' },
      );
    }
  }

  function toModel(application: Application, account: AccountRecord): Model {
    return {
      id: application.id,
      object: 'model',
      created: Math.floor(Date.parse(application.created_at) / 1000),
      owned_by: account.name,
      name: application.name,
    };
  }

  async function prepare(account: AccountRecord, body: ChatCompletionBody): Promise<CompletionTurn> {
    const application = await findModel(account, body.model);
    const instructions = body.messages
      .filter((message) => message.role === 'system' || message.role === 'developer')
      .map((message) => textOf(message).trim());
    const dialogue: HistoryMessage[] = body.messages.flatMap((message) => {
      if (message.role !== 'user' && message.role !== 'assistant') return [];
      const content = message.role === 'assistant' ? withoutSourcesFooter(textOf(message)) : textOf(message);
      return content.trim() ? [{ role: message.role, content }] : [];
    });
    const last = dialogue.at(-1);
    if (last?.role !== 'user') {
      throw invalidRequest(
        'messages must end with a user message with text: it is the question answered',
        'messages',
      );
    }
    const history = dialogue.slice(0, -1);
    return {
      id: newId('chatcmpl'),
      created: Math.floor(clock.now().getTime() / 1000),
      model: application.id,
      followUpContext: followUpContext(history, last.content),
      request: {
        model: application.model,
        systemMessage: [application.system_message.trim(), ...instructions].filter(Boolean).join('\n\n'),
        question: last.content,
        history,
        passages: [],
      },
    };
  }

  async function* generate(turn: CompletionTurn, signal: AbortSignal): AsyncGenerator<CompletionEvent> {
    const passages = await retrieveContext(
      { store, retriever },
      {
        applicationId: turn.model,
        query: turn.request.question,
        context: turn.followUpContext,
        signal,
      },
    );
    let content = '';
    let finish: { usage: Usage; usedPassages: number[] } | undefined;
    try {
      for await (const event of responder.reply({ ...turn.request, passages }, { signal })) {
        if (event.type === 'text-delta') {
          content += event.delta;
          yield event;
        } else {
          finish = event;
        }
      }
    } catch (error) {
      if (error instanceof UpstreamError)
        throw new CkbError('upstream_error', error.message, { cause: error });
      throw error;
    }
    signal.throwIfAborted();
    const used = finish?.usedPassages ?? passages.map((passage) => passage.number);
    const footer = sourcesFooter(passages, used);
    if (footer) yield { type: 'text-delta', delta: footer };
    yield {
      type: 'finish',
      content: content + footer,
      sources: replySources(passages, used),
      usage: finish?.usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    };
  }

  function chunk(
    turn: CompletionTurn,
    choice: ChatCompletionChunk['choices'][number] | undefined,
    extra: Partial<ChatCompletionChunk> = {},
  ): ChatCompletionChunk {
    return {
      id: turn.id,
      object: 'chat.completion.chunk',
      created: turn.created,
      model: turn.model,
      choices: choice ? [choice] : [],
      ...extra,
    };
  }

  return {
    async models(account: AccountRecord): Promise<Model[]> {
      const list = await applications.list(account, {});
      return list.map((application) => toModel(application, account));
    },

    async model(account: AccountRecord, id: string): Promise<Model> {
      return toModel(await findModel(account, id), account);
    },

    /** Checks the request (unknown model, no question) before anything is retrieved or streamed; throws at once. */
    prepare,

    async complete(turn: CompletionTurn, signal: AbortSignal): Promise<ChatCompletion> {
      for await (const event of generate(turn, signal)) {
        if (event.type !== 'finish') continue;
        return {
          id: turn.id,
          object: 'chat.completion',
          created: turn.created,
          model: turn.model,
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: event.content, refusal: null },
              finish_reason: 'stop',
              logprobs: null,
            },
          ],
          usage: event.usage,
          sources: event.sources,
        };
      }
      throw new Error('the reply ended without finishing');
    },

    /** OpenAI's chunks: the role first, the content deltas, a finishing chunk with the sources, then usage if asked. */
    async *stream(
      turn: CompletionTurn,
      options: { includeUsage: boolean; signal: AbortSignal },
    ): AsyncGenerator<ChatCompletionChunk> {
      const usage = options.includeUsage ? { usage: null } : {};
      const choice = (delta: ChatCompletionChunk['choices'][number]['delta']) => ({
        index: 0,
        delta,
        finish_reason: null,
        logprobs: null,
      });
      yield chunk(turn, choice({ role: 'assistant', content: '' }), usage);
      for await (const event of generate(turn, options.signal)) {
        if (event.type === 'text-delta') {
          yield chunk(turn, choice({ content: event.delta }), usage);
          continue;
        }
        const finished = { index: 0, delta: {}, finish_reason: 'stop' as const, logprobs: null };
        yield chunk(turn, finished, { ...usage, sources: event.sources });
        if (options.includeUsage) yield chunk(turn, undefined, { usage: event.usage });
      }
    },
  };
}
