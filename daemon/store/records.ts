import type { ModelName } from '../../src/api/applications.ts';
import type { ReplySource } from '../../src/api/conversations.ts';
import type { EmbedStatus, SourceContent, SourceType } from '../../src/api/sources.ts';

export interface AccountRecord {
  id: string;
  name: string;
  created_at: string;
}

export interface KeyRecord {
  id: string;
  account_id: string;
  /** SHA-256 of the secret: the secret itself is never stored. */
  hash: string;
  prefix: string;
  admin: boolean;
  created_at: string;
  revoked_at: string | null;
}

export interface ApplicationRecord {
  id: string;
  account_id: string;
  name: string;
  description: string;
  model: ModelName;
  system_message: string;
  created_at: string;
  updated_at: string;
}

/** A source as lists show it: everything but its content, which may be megabytes. */
export interface SourceSummary {
  id: string;
  account_id: string;
  application_id: string;
  name: string;
  type: SourceType;
  embed_status: EmbedStatus;
  embed_status_message: string;
  chunks: number;
  pages: number;
  characters: number;
  /** Id of the embedder whose vectors hold the live chunks; null until COMPLETED. */
  embedder: string | null;
  /** Added with an admin key: on a loopback daemon, it may fetch private addresses (private-addresses.ts). */
  allow_private_addresses: boolean;
  /** See SourceTable in schema.ts. */
  content_hash: string | null;
  /** Seconds between re-syncs of a web source; null: none. */
  sync_interval: number | null;
  /** Ingestion attempts so far, and why the last one that did not complete ended. */
  attempts: number;
  last_error: string;
  created_at: string;
  updated_at: string;
}

/** A whole source: its content is typed by its type (a file id or URL, a list of URLs, a text). */
export type SourceRecord = SourceSummary & SourceContent;

export interface FileRecord {
  id: string;
  account_id: string;
  name: string;
  bytes: number;
  sha256: string;
  uploaded_at: string;
}

export interface ConversationRecord {
  id: string;
  account_id: string;
  application_id: string;
  title: string;
  prompt_tokens: number;
  completion_tokens: number;
  message_count: number;
  created_at: string;
  updated_at: string;
}

export interface MessageRecord {
  id: string;
  account_id: string;
  conversation_id: string;
  role: 'user' | 'assistant';
  content: string;
  sources: ReplySource[];
  prompt_tokens: number;
  completion_tokens: number;
  created_at: string;
}
