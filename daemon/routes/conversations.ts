import type { Context } from 'koa';
import type { CreateConversationBody } from '../../src/api/conversations.ts';
import { toErrorResponse } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { Services } from '../services/index.ts';
import { accountOf } from './caller.ts';
import type { Routes } from './endpoint-router.ts';
import type { RouteOptions } from './options.ts';
import { requestIdOf } from './request.ts';
import { openEventStream } from './sse.ts';

export function conversationRoutes(services: Services, options: RouteOptions & { logger: Logger }) {
  const { conversations } = services;

  async function stream(ctx: Context, body: CreateConversationBody, signal: AbortSignal): Promise<undefined> {
    // A request that is wrong (unknown ids, a mismatch) throws here and answers with a plain HTTP error; once
    // it is accepted the stream opens at once, so pings flow while retrieval and the model's first token wait.
    const turn = await conversations.turn(accountOf(ctx), body, signal);
    const events = openEventStream(ctx, options.pingIntervalMs);
    try {
      for await (const event of turn) {
        // The contract's names: a text delta is a `chunk`, the finished reply `done`.
        if (event.type === 'text-delta') await events.send('chunk', { delta: event.delta });
        else await events.send('done', event.reply);
      }
    } catch (error) {
      const response = toErrorResponse(error);
      const request_id = requestIdOf(ctx);
      if (signal.aborted)
        options.logger.log('info', 'client disconnected during a streamed reply', { request_id });
      else if (response.internal) {
        options.logger.log('error', 'streamed turn failed', {
          request_id,
          error: String(error),
          stack: (error as Error).stack,
        });
      }
      if (!signal.aborted) await events.send('error', response.body);
    } finally {
      events.end();
    }
  }

  return {
    listConversations: async ({ query }, ctx) => conversations.list(accountOf(ctx), query),
    createConversationTurn: async ({ body }, ctx) => {
      const signal = options.abortSignal(ctx);
      if (body.stream) return stream(ctx, body, signal);
      for await (const event of await conversations.turn(accountOf(ctx), body, signal)) {
        if (event.type === 'finish') return event.reply;
      }
    },
    getConversation: async ({ params }, ctx) => conversations.get(accountOf(ctx), params.id),
    updateConversation: async ({ params, body }, ctx) =>
      conversations.update(accountOf(ctx), params.id, body),
    deleteConversation: async ({ params }, ctx) => conversations.remove(accountOf(ctx), params.id),
  } satisfies Routes;
}
