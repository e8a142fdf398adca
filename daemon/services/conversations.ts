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
import { type ContextPassage, type HistoryMessage, type Responder, UpstreamError } from '../respond/types.ts';
import { type Retriever, retrievalQuery } from '../retrieve/index.ts';
import type { Store } from '../store/index.ts';
import type {
  AccountRecord,
  ApplicationRecord,
  ConversationRecord,
  MessageRecord,
} from '../store/records.ts';
import { findApplication, isLiveApplication } from './applications.ts';
import type { Deletion } from './deletion.ts';
import { newestFirst } from './paging.ts';
import { searchApplication } from './search.ts';

/** How many passages a turn gives the model as context. */
const CONTEXT_PASSAGES = 6;

export type TurnEvent = { type: 'delta'; delta: string } | { type: 'done'; reply: Reply };

function toMessage(record: MessageRecord): Message {
  const { id, role, content, sources, prompt_tokens, completion_tokens, created_at } = record;
  return { id, role, content, sources, prompt_tokens, completion_tokens, created_at };
}

export type ConversationService = ReturnType<typeof createConversationService>;

export function createConversationService(deps: {
  store: Store;
  clock: Clock;
  retriever: Retriever;
  responder: Responder;
  deletion: Deletion;
}) {
  const { store, clock, retriever, responder, deletion } = deps;

  function find(account: AccountRecord, id: string, param?: string): ConversationRecord {
    const record = store.conversations.get(id);
    const application = record && store.applications.get(record.application_id);
    if (!record || record.account_id !== account.id || !application || application.deleting) {
      throw notFound('conversation', id, param);
    }
    return record;
  }

  function messagesOf(conversationId: string): MessageRecord[] {
    return store.messages.childrenOf(conversationId);
  }

  function toConversation(record: ConversationRecord, withMessages: boolean): Conversation {
    const messages = messagesOf(record.id);
    const replies = messages.filter((message) => message.role === 'assistant');
    const prompt = replies.reduce((sum, message) => sum + message.prompt_tokens, 0);
    const completion = replies.reduce((sum, message) => sum + message.completion_tokens, 0);
    const last = messages.at(-1)?.created_at;
    return {
      id: record.id,
      application_id: record.application_id,
      messages: withMessages ? messages.map(toMessage) : [],
      title: record.title,
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
      created_at: record.created_at,
      updated_at: last && last > record.updated_at ? last : record.updated_at,
    };
  }

  function visible(account: AccountRecord, conversation: ConversationRecord): boolean {
    const application = store.applications.get(conversation.application_id);
    return conversation.account_id === account.id && application !== undefined && !application.deleting;
  }

  function target(account: AccountRecord, body: CreateConversationBody) {
    if (body.conversation_id) {
      const conversation = find(account, body.conversation_id, 'conversation_id');
      if (body.application_id && body.application_id !== conversation.application_id) {
        throw invalidRequest(
          `conversation ${conversation.id} belongs to application ${conversation.application_id}, not ${body.application_id}`,
          'application_id',
        );
      }
      return { conversation, application: findApplication(store, account, conversation.application_id) };
    }
    if (!body.application_id) {
      throw invalidRequest('application_id is required to start a conversation', 'application_id');
    }
    return {
      conversation: undefined,
      application: findApplication(store, account, body.application_id, 'application_id'),
    };
  }

  async function retrieve(
    application: ApplicationRecord,
    query: string,
    signal: AbortSignal,
  ): Promise<ContextPassage[]> {
    const passages = await searchApplication(
      { store, retriever },
      { applicationId: application.id, query, limit: CONTEXT_PASSAGES, signal },
    );
    return passages.map((passage, index) => ({
      number: index + 1,
      sourceName: passage.sourceName,
      sourceId: passage.sourceId,
      page: passage.page,
      text: passage.text,
      score: passage.score,
      ...(passage.url ? { url: passage.url } : {}),
    }));
  }

  /** Both messages of a turn in one commit, before a new conversation's row: see Deletion.recover. */
  async function commitTurn(
    account: AccountRecord,
    conversation: ConversationRecord,
    isNew: boolean,
    turn: { question: string; answer: string; sources: ReplySource[]; usage: Usage },
  ): Promise<void> {
    const now = timestamp(clock);
    const base = { account_id: account.id, conversation_id: conversation.id, created_at: now };
    await store.messages.put(
      {
        ...base,
        id: newId('msg'),
        role: 'user',
        content: turn.question,
        sources: [],
        prompt_tokens: countTokens(turn.question),
        completion_tokens: 0,
      },
      {
        ...base,
        id: newId('msg'),
        role: 'assistant',
        content: turn.answer,
        sources: turn.sources,
        prompt_tokens: turn.usage.prompt_tokens,
        completion_tokens: turn.usage.completion_tokens,
      },
    );
    await store.conversations.put(isNew ? conversation : { ...conversation, updated_at: now });
    if (!isLiveApplication(store, conversation.application_id)) {
      await deletion.deleteConversation(conversation.id);
      throw notFound('application', conversation.application_id, 'application_id');
    }
  }

  async function* generate(
    account: AccountRecord,
    body: CreateConversationBody,
    resolved: { conversation: ConversationRecord | undefined; application: ApplicationRecord },
    signal: AbortSignal,
  ): AsyncGenerator<TurnEvent> {
    const { conversation, application } = resolved;
    const history: HistoryMessage[] = conversation
      ? messagesOf(conversation.id).map(({ role, content }) => ({ role, content }))
      : [];
    const passages = await retrieve(application, retrievalQuery(history, body.message), signal);
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
        yield { type: 'delta', delta: event.delta };
      } else {
        finish = event;
      }
    }
    signal.throwIfAborted();
    const usage = finish?.usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
    const sources = replySources(passages, finish?.usedPassages ?? passages.map((passage) => passage.number));
    const now = timestamp(clock);
    const record = conversation ?? {
      id: newId('conv'),
      account_id: account.id,
      application_id: application.id,
      title: await responder.title({ model: application.model, message: body.message, passages }, { signal }),
      created_at: now,
      updated_at: now,
    };
    signal.throwIfAborted();
    await commitTurn(account, record, !conversation, { question: body.message, answer, sources, usage });
    yield {
      type: 'done',
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
     * aborted or failed turn commits nothing. The request is checked before this returns (unknown ids and
     * mismatches throw here, at once); what fails later arrives through the events, provider failures as
     * `upstream_error`.
     */
    turn(
      account: AccountRecord,
      body: CreateConversationBody,
      signal: AbortSignal,
    ): AsyncGenerator<TurnEvent> {
      return mapUpstreamErrors(generate(account, body, target(account, body), signal));
    },

    list(account: AccountRecord, query: ListQuery): Conversation[] {
      const records = store.conversations.filter((conversation) => visible(account, conversation));
      return newestFirst(records, query).map((record) => toConversation(record, false));
    },

    listForApplication(account: AccountRecord, applicationId: string, query: ListQuery): Conversation[] {
      const application = findApplication(store, account, applicationId);
      const records = store.conversations.childrenOf(application.id);
      return newestFirst(records, query).map((record) => toConversation(record, false));
    },

    get(account: AccountRecord, id: string): Conversation {
      return toConversation(find(account, id), true);
    },

    async update(account: AccountRecord, id: string, body: UpdateConversationBody): Promise<Conversation> {
      const current = find(account, id);
      const record =
        body.title === undefined ? current : { ...current, title: body.title, updated_at: timestamp(clock) };
      if (record !== current) await store.conversations.put(record);
      return toConversation(record, true);
    },

    async remove(account: AccountRecord, id: string): Promise<{ id: string; deleted: true }> {
      await deletion.deleteConversation(find(account, id).id);
      return { id, deleted: true };
    },
  };
}
