import type { Selectable } from 'kysely';
import type { ReplySource } from '../../src/api/conversations.ts';
import { notFound } from '../errors.ts';
import type { Database } from './database.ts';
import { sharedLock } from './locks.ts';
import { newestFirst, type Page } from './paging.ts';
import type { ConversationRecord, MessageRecord } from './records.ts';
import type { MessageTable } from './schema.ts';

function toMessage(row: Selectable<MessageTable>): MessageRecord {
  return { ...row, sources: JSON.parse(row.sources) as ReplySource[] };
}

/** A turn to add: the question and the reply, with the reply's token counts. */
export interface Turn {
  question: MessageRecord;
  answer: MessageRecord;
}

export type ConversationStore = ReturnType<typeof createConversationStore>;

export function createConversationStore(database: Database) {
  const { db } = database;
  return {
    async find(accountId: string, id: string): Promise<ConversationRecord | undefined> {
      return db
        .selectFrom('conversations')
        .selectAll()
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
    },

    async list(
      accountId: string,
      applicationId: string | undefined,
      page: Page,
    ): Promise<ConversationRecord[]> {
      let query = db.selectFrom('conversations').selectAll().where('account_id', '=', accountId);
      if (applicationId !== undefined) query = query.where('application_id', '=', applicationId);
      return newestFirst(query, 'id', page, 'conv').execute();
    },

    async messages(conversationId: string): Promise<MessageRecord[]> {
      const rows = await db
        .selectFrom('messages')
        .selectAll()
        .where('conversation_id', '=', conversationId)
        .orderBy('id')
        .execute();
      return rows.map(toMessage);
    },

    /**
     * Adds a turn's two messages and the conversation's new totals in one transaction, creating the
     * conversation when it is new. If the conversation or its application was deleted meanwhile, nothing is
     * written and this throws not found.
     */
    async addTurn(conversation: ConversationRecord, isNew: boolean, turn: Turn): Promise<ConversationRecord> {
      return database.transaction(async (trx) => {
        const { answer } = turn;
        let stored: ConversationRecord | undefined;
        if (isNew) {
          const application = await sharedLock(
            database,
            trx
              .selectFrom('applications')
              .select('id')
              .where('id', '=', conversation.application_id)
              .where('account_id', '=', conversation.account_id),
          ).executeTakeFirst();
          if (!application) throw notFound('application', conversation.application_id, 'application_id');
          stored = {
            ...conversation,
            prompt_tokens: answer.prompt_tokens,
            completion_tokens: answer.completion_tokens,
            message_count: 2,
            updated_at: answer.created_at,
          };
          await trx.insertInto('conversations').values(stored).execute();
        } else {
          stored = await trx
            .updateTable('conversations')
            .set((eb) => ({
              prompt_tokens: eb('prompt_tokens', '+', answer.prompt_tokens),
              completion_tokens: eb('completion_tokens', '+', answer.completion_tokens),
              message_count: eb('message_count', '+', 2),
              updated_at: answer.created_at,
            }))
            .where('id', '=', conversation.id)
            .returningAll()
            .executeTakeFirst();
          if (!stored) throw notFound('conversation', conversation.id, 'conversation_id');
        }
        await trx
          .insertInto('messages')
          .values(
            [turn.question, answer].map((message) => ({
              ...message,
              sources: JSON.stringify(message.sources),
            })),
          )
          .execute();
        return stored;
      });
    },

    async rename(
      accountId: string,
      id: string,
      title: string,
      at: string,
    ): Promise<ConversationRecord | undefined> {
      return db
        .updateTable('conversations')
        .set({ title, updated_at: at })
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .returningAll()
        .executeTakeFirst();
    },

    /** Deletes the conversation and its messages (they cascade) in one statement. */
    async delete(accountId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom('conversations')
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
  };
}
