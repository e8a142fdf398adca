import type { ListQuery } from '../../src/api/common.ts';
import type {
  Conversation,
  CreateConversationBody,
  Message,
  Reply,
  ReplySource,
  UpdateConversationBody,
  Usage,
} from '../../src/api/conversations.ts';
import { type Clock, timestamp } from '../clock.ts';
import { CkbError, invalidRequest, notFound } from '../errors.ts';
import { newId } from '../ids.ts';
import { replySources } from '../respond/citations.ts';
import { countTokens } from '../respond/tokens.ts';
import {
  type HistoryMessage,
  type ReplyStreamEvent,
  type Responder,
  UpstreamError,
} from '../respond/types.ts';
import { followUpContext, type Retriever } from '../retrieve/index.ts';
import type { Store } from '../store/index.ts';
import type {
  AccountRecord,
  ApplicationRecord,
  ConversationRecord,
  MessageRecord,
} from '../store/records.ts';
import { retrieveContext } from './answer-context.ts';
import { findApplication } from './applications.ts';

/** A turn finishes with the reply, once it is committed. */
export type TurnEvent = ReplyStreamEvent<{ reply: Reply }>;

function toMessage(record: MessageRecord): Message {
  const { id, role, content, sources, prompt_tokens, completion_tokens, created_at } = record;
  return { id, role, content, sources, prompt_tokens, completion_tokens, created_at };
}

export type ConversationService = ReturnType<typeof createConversationService>;

function toConversation(record: ConversationRecord, messages: MessageRecord[]): Conversation {
  return {
    id: record.id,
    application_id: record.application_id,
    messages: messages.map(toMessage),
    message_count: record.message_count,
    title: record.title,
    prompt_tokens: record.prompt_tokens,
    completion_tokens: record.completion_tokens,
    total_tokens: record.prompt_tokens + record.completion_tokens,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

export function createConversationService(deps: {
  store: Store;
  clock: Clock;
  retriever: Retriever;
  responder: Responder;
}) {
  const { store, clock, retriever, responder } = deps;

  async function find(account: AccountRecord, id: string, param?: string): Promise<ConversationRecord> {
    const record = await store.conversations.find(account.id, id);
    if (!record) throw notFound('conversation', id, param);
    return record;
  }

  async function target(account: AccountRecord, body: CreateConversationBody) {
    if (body.conversation_id) {
      const conversation = await find(account, body.conversation_id, 'conversation_id');
      if (body.application_id && body.application_id !== conversation.application_id) {
        throw invalidRequest(
          `conversation ${conversation.id} belongs to application ${conversation.application_id}, not ${body.application_id}`,
          'application_id',
        );
      }
      const application = await findApplication(store, account, conversation.application_id);
      return { conversation, application };
    }
    if (!body.application_id) {
      throw invalidRequest('application_id is required to start a conversation', 'application_id');
    }
    return {
      conversation: undefined,
      application: await findApplication(store, account, body.application_id, 'application_id'),
    };
  }

  /** Both messages of a turn and the conversation's totals in one transaction (store/conversations.ts). */
  async function commitTurn(
    account: AccountRecord,
    conversation: ConversationRecord,
    isNew: boolean,
    turn: { question: string; answer: string; sources: ReplySource[]; usage: Usage },
  ): Promise<void> {
    const now = timestamp(clock);
    const base = { account_id: account.id, conversation_id: conversation.id, created_at: now };
    await store.conversations.addTurn(conversation, isNew, {
      question: {
        ...base,
        id: newId('msg'),
        role: 'user',
        content: turn.question,
        sources: [],
        prompt_tokens: countTokens(turn.question),
        completion_tokens: 0,
      },
      answer: {
        ...base,
        id: newId('msg'),
        role: 'assistant',
        content: turn.answer,
        sources: turn.sources,
        prompt_tokens: turn.usage.prompt_tokens,
        completion_tokens: turn.usage.completion_tokens,
      },
    });
  }

  async function* generate(
    account: AccountRecord,
    body: CreateConversationBody,
    resolved: { conversation: ConversationRecord | undefined; application: ApplicationRecord },
    signal: AbortSignal,
  ): AsyncGenerator<TurnEvent> {
    const { conversation, application } = resolved;
    const history: HistoryMessage[] = conversation
      ? (await store.conversations.messages(conversation.id)).map(({ role, content }) => ({ role, content }))
      : [];
    const passages = await retrieveContext(
      { store, retriever },
      {
        applicationId: application.id,
        query: body.message,
        context: followUpContext(history, body.message),
        signal,
      },
    );
    const request = {
      model: application.model,
      systemMessage: application.system_message,
      question: body.message,
      history,
      passages,
    };
    let answer = '';
    let finish: { usage: Usage; usedPassages: number[] } | undefined;
    for await (const event of responder.reply(request, { signal })) {
      if (event.type === 'text-delta') {
        answer += event.delta;
        yield event;
      } else {
        finish = event;
      }
    }
    signal.throwIfAborted();
    const usage = finish?.usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
    const sources = replySources(passages, finish?.usedPassages ?? passages.map((passage) => passage.number));
    const now = timestamp(clock);
    const record: ConversationRecord = conversation ?? {
      id: newId('conv'),
      account_id: account.id,
      application_id: application.id,
      title: await responder.title({ model: application.model, message: body.message, passages }, { signal }),
      prompt_tokens: 0,
      completion_tokens: 0,
      message_count: 0,
      created_at: now,
      updated_at: now,
    };
    signal.throwIfAborted();
    await commitTurn(account, record, !conversation, { question: body.message, answer, sources, usage });
    yield {
      type: 'finish',
      reply: { conversation_id: record.id, title: record.title, message: answer, sources, usage },
    };
  }

  async function* mapUpstreamErrors(events: AsyncGenerator<TurnEvent>): AsyncGenerator<TurnEvent> {
    try {
      yield* events;
    } catch (error) {
      if (error instanceof UpstreamError)
        throw new CkbError('upstream_error', error.message, { cause: error });
      throw error;
    }
  }

  return {
    /**
     * One turn: retrieve, reply (streamed as deltas), then commit the question and the reply together. An
     * aborted or failed turn commits nothing. The request is checked before this resolves (unknown ids and
     * mismatches throw here); what fails later arrives through the events, provider failures as
     * `upstream_error`.
     */
    async turn(
      account: AccountRecord,
      body: CreateConversationBody,
      signal: AbortSignal,
    ): Promise<AsyncGenerator<TurnEvent>> {
      return mapUpstreamErrors(generate(account, body, await target(account, body), signal));
    },

    async list(account: AccountRecord, query: ListQuery): Promise<Conversation[]> {
      const records = await store.conversations.list(account.id, undefined, query);
      return records.map((record) => toConversation(record, []));
    },

    async listForApplication(
      account: AccountRecord,
      applicationId: string,
      query: ListQuery,
    ): Promise<Conversation[]> {
      const application = await findApplication(store, account, applicationId);
      const records = await store.conversations.list(account.id, application.id, query);
      return records.map((record) => toConversation(record, []));
    },

    async get(account: AccountRecord, id: string): Promise<Conversation> {
      const record = await find(account, id);
      return toConversation(record, await store.conversations.messages(record.id));
    },

    async update(account: AccountRecord, id: string, body: UpdateConversationBody): Promise<Conversation> {
      const record =
        body.title === undefined
          ? await find(account, id)
          : await store.conversations.rename(account.id, id, body.title, timestamp(clock));
      if (!record) throw notFound('conversation', id);
      return toConversation(record, await store.conversations.messages(record.id));
    },

    async remove(account: AccountRecord, id: string): Promise<{ id: string; deleted: true }> {
      if (!(await store.conversations.delete(account.id, id))) throw notFound('conversation', id);
      return { id, deleted: true };
    },
  };
}
