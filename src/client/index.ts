export type * from '../api/index.ts';
export {
  type ApplicationInput,
  type ApplicationUpdate,
  type CkbClient,
  type ClientOptions,
  type ConversationInput,
  type ConversationUpdate,
  createClient,
  type KeyInput,
  type Paging,
  type RequestOptions,
  type SearchInput,
  type SourceInput,
  type SourceUpdate,
} from './client.ts';
export * from './errors.ts';
export { readServerSentEvents, toStreamEvent } from './sse.ts';
export { ReplyStream, type ReplyStreamEvent } from './stream.ts';
