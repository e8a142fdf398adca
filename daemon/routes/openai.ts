import { toOpenAiErrorResponse } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { Services } from '../services/index.ts';
import { accountOf } from './caller.ts';
import type { Routes } from './endpoint-router.ts';
import type { RouteOptions } from './options.ts';
import { openDataStream } from './sse.ts';

/** Under /v1, errors have OpenAI's shape: app.ts renders them so for every path with this prefix. */
const OPENAI_PREFIX = '/v1';

/** OpenAI's clients read errors in OpenAI's shape, unknown paths and missing keys included. */
export function isOpenAiPath(path: string): boolean {
  return path === OPENAI_PREFIX || path.startsWith(`${OPENAI_PREFIX}/`);
}

/** The OpenAI-compatible API: an account's applications as models, answering chat completions. */
export function openAiRoutes(services: Services, options: RouteOptions & { logger: Logger }) {
  const { chatCompletions } = services;
  return {
    listModels: async (_request, ctx) => ({
      object: 'list',
      data: await chatCompletions.models(accountOf(ctx)),
    }),
    getModel: async ({ params }, ctx) => chatCompletions.model(accountOf(ctx), params.id),
    createChatCompletion: async ({ body }, ctx) => {
      // An unknown model or a request without a question is a plain HTTP error, before any stream opens.
      const turn = await chatCompletions.prepare(accountOf(ctx), body);
      const signal = options.abortSignal(ctx);
      if (!body.stream) return chatCompletions.complete(turn, signal);
      const includeUsage = body.stream_options?.include_usage === true;
      const stream = openDataStream(ctx, options.pingIntervalMs);
      try {
        for await (const chunk of chatCompletions.stream(turn, { includeUsage, signal }))
          await stream.send(chunk);
        await stream.done();
      } catch (error) {
        const response = toOpenAiErrorResponse(error);
        if (response.internal)
          options.logger.log('error', 'streamed completion failed', { error: String(error) });
        // OpenAI's clients read a `data:` object with an `error` field as the stream's failure.
        if (!signal.aborted) await stream.send(response.body);
      } finally {
        stream.end();
      }
    },
  } satisfies Routes;
}
