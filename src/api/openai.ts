import { z } from 'zod';
import { MESSAGE_MAX_CHARACTERS, ReplySource, Usage } from './conversations.ts';

// The OpenAI-compatible API under /v1: OpenAI's wire format for models and chat completions, where a
// model is one of the account's applications. Fields OpenAI defines and ckb has no use for (temperature,
// max_tokens, tools…) are accepted and ignored, as unknown fields are everywhere in the API.

export const CHAT_ROLES = ['system', 'developer', 'user', 'assistant'] as const;

const MessageText = z.string().max(MESSAGE_MAX_CHARACTERS, `at most ${MESSAGE_MAX_CHARACTERS} characters`);

const TextPart = z.object({
  type: z.literal('text', { error: () => 'only text content parts are supported' }),
  text: MessageText,
});

export const ChatMessage = z.object({
  role: z.enum(CHAT_ROLES, {
    error: () => `role must be one of ${CHAT_ROLES.join(', ')} (tool calls are not supported)`,
  }),
  /** A string or text parts; null for an assistant message that only called tools. */
  content: z.union([MessageText, z.array(TextPart).max(100), z.null()], {
    error: () => 'content must be text or a list of text parts (images and other parts are not supported)',
  }),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

export const ChatCompletionBody = z.object({
  model: z.string().min(1, 'model must be an application id').max(100),
  messages: z.array(ChatMessage).min(1, 'messages must not be empty').max(1000),
  stream: z.boolean().nullish(),
  stream_options: z.object({ include_usage: z.boolean().nullish() }).nullish(),
});
export type ChatCompletionBody = z.infer<typeof ChatCompletionBody>;

export const Model = z.object({
  id: z.string().meta({ description: 'the application id' }),
  object: z.literal('model'),
  created: z.number().int().meta({ description: 'Unix time in seconds' }),
  owned_by: z.string(),
  /** ext: the application's name, for clients that show more than the id. */
  name: z.string(),
});
export type Model = z.infer<typeof Model>;

export const ModelList = z.object({ object: z.literal('list'), data: z.array(Model) });
export type ModelList = z.infer<typeof ModelList>;

export const ChatCompletion = z.object({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      message: z.object({ role: z.literal('assistant'), content: z.string(), refusal: z.null() }),
      finish_reason: z.literal('stop'),
      logprobs: z.null(),
    }),
  ),
  usage: Usage,
  /** ext: the cited sources, as in a ckb reply; the content also lists them at its end. */
  sources: z.array(ReplySource),
});
export type ChatCompletion = z.infer<typeof ChatCompletion>;

export const ChatCompletionChunk = z.object({
  id: z.string(),
  object: z.literal('chat.completion.chunk'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      delta: z.object({ role: z.literal('assistant').optional(), content: z.string().optional() }),
      finish_reason: z.literal('stop').nullable(),
      logprobs: z.null(),
    }),
  ),
  /** With `stream_options.include_usage`: null on every chunk but the last, which has no choices. */
  usage: Usage.nullable().optional(),
  /** ext: on the chunk that finishes the reply. */
  sources: z.array(ReplySource).optional(),
});
export type ChatCompletionChunk = z.infer<typeof ChatCompletionChunk>;

/** OpenAI's error body; `code` is OpenAI's code where it has one for the case, else ckb's error type. */
export const OpenAiErrorBody = z.object({
  error: z.object({
    message: z.string(),
    type: z.enum(['invalid_request_error', 'rate_limit_error', 'server_error']),
    param: z.string().nullable(),
    code: z.string().nullable(),
  }),
});
export type OpenAiErrorBody = z.infer<typeof OpenAiErrorBody>;
