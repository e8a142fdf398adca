import { z } from 'zod';
import { Timestamp } from './common.ts';
import { ErrorBody } from './errors.ts';

export const MESSAGE_MAX_CHARACTERS = 32_000;

export const Usage = z.object({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
});
export type Usage = z.infer<typeof Usage>;

export const ReplySource = z.object({
  source: z.string(),
  page: z.number().int(),
  score: z.number(),
  source_id: z.string(),
  url: z.string().optional(),
});
export type ReplySource = z.infer<typeof ReplySource>;

export const Message = z.object({
  id: z.string(),
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  sources: z.array(ReplySource),
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  created_at: Timestamp,
});
export type Message = z.infer<typeof Message>;

export const Conversation = z.object({
  id: z.string(),
  application_id: z.string(),
  messages: z.array(Message),
  /** ext: how many messages the conversation holds; lists give it while their `messages` stay empty. */
  message_count: z.number().int(),
  title: z.string(),
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Conversation = z.infer<typeof Conversation>;

export const CreateConversationBody = z.object({
  message: z
    .string()
    .trim()
    .min(1, 'message must not be empty')
    .max(MESSAGE_MAX_CHARACTERS, `message must be at most ${MESSAGE_MAX_CHARACTERS} characters`),
  application_id: z.string().min(1).max(100).optional(),
  conversation_id: z.string().min(1).max(100).optional(),
  stream: z.boolean().default(false),
});
export type CreateConversationBody = z.infer<typeof CreateConversationBody>;

export const UpdateConversationBody = z.object({
  title: z
    .string()
    .trim()
    .min(1, 'title must not be empty')
    .max(200, 'title must be at most 200 characters')
    .optional(),
});
export type UpdateConversationBody = z.infer<typeof UpdateConversationBody>;

export const Reply = z.object({
  conversation_id: z.string(),
  title: z.string(),
  message: z.string(),
  sources: z.array(ReplySource),
  usage: Usage,
});
export type Reply = z.infer<typeof Reply>;

/** Server-sent events of a streamed reply, by event name. */
export const ChunkEventData = z.object({ delta: z.string() });
export const StreamEvents = {
  chunk: ChunkEventData,
  done: Reply,
  error: ErrorBody,
} as const;
export type StreamEvent =
  | { event: 'chunk'; data: z.infer<typeof ChunkEventData> }
  | { event: 'done'; data: Reply }
  | { event: 'error'; data: ErrorBody };
