import type { Generated } from 'kysely';
import type { ModelName } from '../../src/api/applications.ts';
import type { EmbedStatus, SourceType } from '../../src/api/sources.ts';

/**
 * The metadata tables, as Kysely sees them (created by migrations.ts). Times are ISO 8601 strings, which sort
 * as they compare; lease and schedule times are milliseconds since the epoch, for arithmetic. Booleans are 0
 * or 1, as SQLite has no boolean type. Ids are time-sortable, so `ORDER BY id` is creation order.
 */
export interface Schema {
  accounts: AccountTable;
  keys: KeyTable;
  applications: ApplicationTable;
  sources: SourceTable;
  files: FileTable;
  conversations: ConversationTable;
  messages: MessageTable;
  jobs: JobTable;
  source_pages: SourcePageTable;
  chunk_purges: ChunkPurgeTable;
  chunk_writes: ChunkWriteTable;
  settings: SettingTable;
}

export interface AccountTable {
  id: string;
  name: string;
  created_at: string;
}

export interface KeyTable {
  id: string;
  account_id: string;
  /** SHA-256 of the secret: the secret itself is never stored. */
  hash: string;
  prefix: string;
  admin: number;
  created_at: string;
  revoked_at: string | null;
}

export interface ApplicationTable {
  id: string;
  account_id: string;
  name: string;
  description: string;
  model: ModelName;
  system_message: string;
  created_at: string;
  updated_at: string;
}

export interface SourceTable {
  id: string;
  account_id: string;
  application_id: string;
  name: string;
  type: SourceType;
  /** The content as given, as JSON (a string, or an array of URLs). */
  content: string;
  /** Bytes of `content`, counted against the account's storage. */
  content_bytes: number;
  embed_status: EmbedStatus;
  embed_status_message: string;
  chunks: number;
  pages: number;
  characters: number;
  /** Id of the embedder whose vectors hold the live chunks; null until a first COMPLETED. */
  embedder: string | null;
  allow_private_addresses: number;
  /**
   * The generation of the chunks searches see (null: none). Each ingestion attempt writes its chunks under a
   * new generation and makes it live in the transaction that marks the source COMPLETED, so a search sees the
   * old chunks or the new ones, never both, and an attempt cut short leaves nothing visible.
   */
  generation: number | null;
  /** The last generation handed to an attempt. */
  last_generation: number;
  /**
   * SHA-256 of the content: a text's, an uploaded file's bytes (both known when the content is given); for
   * content fetched from the web, of the pages the live chunks were made from (null until then).
   */
  content_hash: string | null;
  /** Seconds between two re-syncs of a web source, run by the job queue (source-versions.ts); null: none. */
  sync_interval: number | null;
  /** Ingestion attempts of the source's current content, the one under way included. */
  attempts: Generated<number>;
  /** Why the last attempt that did not complete ended ('' when none did). */
  last_error: Generated<string>;
  created_at: string;
  updated_at: string;
}

/**
 * A web page the live chunks of a `url`, `urls`, `website` or file-by-URL source were made from, written in the
 * transaction that makes those chunks live. A re-sync asks the server whether each page changed (its validators)
 * and, when it did not, uses the text kept here instead of reading the page again.
 */
export interface SourcePageTable {
  source_id: string;
  /** The page's number in the source (1-based; a PDF behind one address has several, with that address). */
  position: number;
  /** The address requested, which a re-sync requests again. */
  address: string;
  /** The address after redirects. */
  url: string;
  canonical_url: string | null;
  title: string | null;
  text: string;
  /** The page's links as JSON, for a crawl that follows links; `[]` otherwise. */
  links: string;
  etag: string | null;
  last_modified: string | null;
}

export interface FileTable {
  id: string;
  account_id: string;
  name: string;
  bytes: number;
  sha256: string;
  uploaded_at: string;
}

export interface ConversationTable {
  id: string;
  account_id: string;
  application_id: string;
  title: string;
  /** Totals over the conversation's replies, kept in the transaction that adds each turn. */
  prompt_tokens: number;
  completion_tokens: number;
  message_count: number;
  created_at: string;
  updated_at: string;
}

export interface MessageTable {
  id: string;
  account_id: string;
  conversation_id: string;
  role: 'user' | 'assistant';
  content: string;
  /** The reply's sources, as JSON. */
  sources: string;
  prompt_tokens: number;
  completion_tokens: number;
  created_at: string;
}

export type Lane = 'local' | 'web';

/**
 * A source waiting to be ingested, or being ingested under a lease. The next periodic re-sync of a web source
 * waits as a job too: one with no attempts yet and `run_after` in the future (source-versions.ts).
 */
export interface JobTable {
  id: string;
  source_id: string;
  /** Web sources wait on other servers and run in a lane of their own. */
  lane: Lane;
  /** What is known of the work before it starts (a text's length, a file's bytes), to run large ones first. */
  size: number;
  attempts: number;
  lease_owner: string | null;
  lease_expires_at: number | null;
  /** The generation the leased attempt writes its chunks under. */
  generation: number | null;
  /** Not claimed before this time: a retry's backoff. */
  run_after: number;
  last_error: string;
  created_at: string;
}

/** Chunks to delete from LanceDB: of a deleted application, or of deleted sources. */
export interface ChunkPurgeTable {
  id: string;
  application_id: string | null;
  source_id: string | null;
  /** Passes made so far; the second is the last (store/purges.ts). */
  passes: number;
  /** Not run again before this time. */
  run_after: number;
  created_at: string;
}

/**
 * An ingestion attempt that may have written chunks under `generation`, from its claim until they are live or
 * deleted. Once the attempt no longer holds its job, any process may settle it: keep the chunks when they went
 * live (deleting older generations when it `replaces` some), delete them otherwise.
 */
export interface ChunkWriteTable {
  source_id: string;
  generation: number;
  replaces: number;
  created_at: string;
}

/** Values the daemon keeps for itself, such as the secret that signs upload addresses. */
export interface SettingTable {
  name: string;
  value: string;
}
