import Router from '@koa/router';
import type { Context } from 'koa';
import { ListQuery } from '../../src/api/common.ts';
import {
  type CreateConversationBody as Body,
  CreateConversationBody,
  UpdateConversationBody,
} from '../../src/api/conversations.ts';
import { toErrorResponse } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { Services } from '../services/index.ts';
import { parseWith } from '../validate.ts';
import { accountOf } from './caller.ts';
import type { RouteOptions } from './options.ts';
import { requestIdOf } from './request.ts';
import { openEventStream } from './sse.ts';

export function conversationRoutes(services: Services, options: RouteOptions & { logger: Logger }): Router {
  const router = new Router({ prefix: '/conversations' });
  const { conversations } = services;

  async function stream(ctx: Context, body: Body, signal: AbortSignal): Promise<void> {
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

  router.get('/', async (ctx) => {
    ctx.body = await conversations.list(accountOf(ctx), parseWith(ListQuery, ctx.query));
  });
  router.post('/', async (ctx) => {
    const body = parseWith(CreateConversationBody, await options.readBody(ctx));
    const signal = options.abortSignal(ctx);
    if (body.stream) return stream(ctx, body, signal);
    for await (const event of await conversations.turn(accountOf(ctx), body, signal)) {
      if (event.type === 'finish') ctx.body = event.reply;
    }
  });
  router.get('/:id', async (ctx) => {
    ctx.body = await conversations.get(accountOf(ctx), ctx.params['id']!);
  });
  router.put('/:id', async (ctx) => {
    const body = parseWith(UpdateConversationBody, await options.readBody(ctx));
    ctx.body = await conversations.update(accountOf(ctx), ctx.params['id']!, body);
  });
  router.delete('/:id', async (ctx) => {
    ctx.body = await conversations.remove(accountOf(ctx), ctx.params['id']!);
  });
  return router;
}
