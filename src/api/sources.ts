import { z } from 'zod';
import { Timestamp } from './common.ts';

export const SOURCE_TYPES = ['text', 'file', 'url', 'urls', 'website'] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

export const EMBED_STATUSES = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'] as const;
export type EmbedStatus = (typeof EMBED_STATUSES)[number];

const HttpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
  .max(4096, 'URLs must be at most 4096 characters');

export const SOURCE_NAME_MAX_CHARACTERS = 200;

const SourceName = z
  .string()
  .trim()
  .min(1, 'name must not be empty')
  .max(SOURCE_NAME_MAX_CHARACTERS, `name must be at most ${SOURCE_NAME_MAX_CHARACTERS} characters`);

const SourceBase = {
  application_id: z.string().min(1).max(100),
  name: SourceName,
};

export const TEXT_SOURCE_MAX_CHARACTERS = 5_000_000;

/** Shortest and longest time between two periodic syncs of a web source, in seconds. */
export const SYNC_INTERVAL_MIN_SECONDS = 60;
export const SYNC_INTERVAL_MAX_SECONDS = 30 * 24 * 3600;

/** ext: seconds between two syncs of a web source, run by the daemon; null (or absent): none. */
const SyncInterval = z
  .number({ error: 'sync_interval must be a number of seconds, or null for none' })
  .int('sync_interval must be a whole number of seconds')
  .min(SYNC_INTERVAL_MIN_SECONDS, `sync_interval must be at least ${SYNC_INTERVAL_MIN_SECONDS} seconds`)
  .max(
    SYNC_INTERVAL_MAX_SECONDS,
    `sync_interval must be at most ${SYNC_INTERVAL_MAX_SECONDS} seconds (30 days)`,
  )
  .nullable();

/** What `content` holds for each type: the same rules when a source is added and when it is updated. */
export const SOURCE_CONTENT = {
  text: z.string().trim().min(1, 'content must not be empty').max(TEXT_SOURCE_MAX_CHARACTERS),
  file: z.union(
    [z.string().regex(/^file_[0-9A-Z]{26}$/, 'content must be a file id or an http(s) URL'), HttpUrl],
    { error: () => 'content must be a file id (file_…) or an http(s) URL' },
  ),
  url: HttpUrl,
  urls: z.array(HttpUrl).min(1).max(1000),
  website: HttpUrl,
} as const satisfies Record<SourceType, z.ZodType>;

/**
 * A source's type with its content, checked by the type's rules: what a source holds whatever else it has, and
 * what an update's new content is checked as (for the source's type, which cannot change).
 */
export const SourceContent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), content: SOURCE_CONTENT.text }),
  z.object({ type: z.literal('file'), content: SOURCE_CONTENT.file }),
  z.object({ type: z.literal('url'), content: SOURCE_CONTENT.url }),
  z.object({ type: z.literal('urls'), content: SOURCE_CONTENT.urls }),
  z.object({ type: z.literal('website'), content: SOURCE_CONTENT.website }),
]);
export type SourceContent = z.infer<typeof SourceContent>;

/** Types whose content is fetched from the web by address, which a sync reads again. */
export const SYNCABLE_TYPES = ['url', 'urls', 'website'] as const satisfies readonly SourceType[];

export const CreateSourceBody = z.discriminatedUnion(
  'type',
  [
    z.object({ ...SourceBase, type: z.literal('text'), content: SOURCE_CONTENT.text }),
    z.object({ ...SourceBase, type: z.literal('file'), content: SOURCE_CONTENT.file }),
    z.object({
      ...SourceBase,
      type: z.literal('url'),
      content: SOURCE_CONTENT.url,
      sync_interval: SyncInterval.optional(),
    }),
    z.object({
      ...SourceBase,
      type: z.literal('urls'),
      content: SOURCE_CONTENT.urls,
      sync_interval: SyncInterval.optional(),
    }),
    z.object({
      ...SourceBase,
      type: z.literal('website'),
      content: SOURCE_CONTENT.website,
      sync_interval: SyncInterval.optional(),
    }),
  ],
  { error: () => `type must be one of ${SOURCE_TYPES.join(', ')}` },
);
export type CreateSourceBody = z.infer<typeof CreateSourceBody>;

/**
 * ext: `PUT /sources/{id}`. New content keeps the source's id: its chunks stay searchable until those of the
 * new content replace them in one step. Content is checked against the source's type, which cannot change.
 */
export const UpdateSourceBody = z
  .object({
    name: SourceName.optional(),
    content: z
      .union([z.string(), z.array(z.string())], {
        error: 'content must be a string (text, file id, URL) or an array of URLs',
      })
      .optional(),
    type: z.enum(SOURCE_TYPES, { error: `type must be one of ${SOURCE_TYPES.join(', ')}` }).optional(),
    sync_interval: SyncInterval.optional(),
  })
  .refine(
    (body) => body.name !== undefined || body.content !== undefined || body.sync_interval !== undefined,
    { error: 'give at least one of name, content and sync_interval' },
  );
export type UpdateSourceBody = z.infer<typeof UpdateSourceBody>;

/** Most sources one batch may add: as many as a `urls` source has addresses. */
export const SOURCE_BATCH_MAX = 1000;

/** ext: many sources in one request, all added or none. */
export const CreateSourcesBody = z.object({
  sources: z
    .array(CreateSourceBody)
    .min(1, 'sources must not be empty')
    .max(
      SOURCE_BATCH_MAX,
      `sources may hold at most ${SOURCE_BATCH_MAX} sources; send more in several requests`,
    ),
});
export type CreateSourcesBody = z.infer<typeof CreateSourcesBody>;

export const Source = z.object({
  id: z.string(),
  application_id: z.string(),
  name: z.string(),
  type: z.enum(SOURCE_TYPES),
  content: z.union([z.string(), z.array(z.string()), z.null()]),
  embed_status: z.enum(EMBED_STATUSES),
  embed_status_message: z.string(),
  /** ext: what ingestion produced, 0 until COMPLETED. */
  chunks: z.number().int(),
  pages: z.number().int(),
  characters: z.number().int(),
  /**
   * ext: SHA-256 (hex) of the content: a text's UTF-8, an uploaded file's bytes; for content read from the web,
   * of the pages the searchable chunks were made from (null until they are). Equal hashes: nothing to update.
   */
  content_hash: z.string().nullable(),
  /** ext: seconds between two syncs of a web source, run by the daemon; null: only when asked. */
  sync_interval: z.number().int().nullable(),
  /** ext: ingestion attempts of the source so far, the one under way included (0 until one starts). */
  attempts: z.number().int(),
  /**
   * ext: why the last attempt that did not complete ended ('' when none did): the failure message, an internal
   * error that is being retried, or the process running it stopping (its lease lapsed and another took it).
   */
  last_error: z.string(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Source = z.infer<typeof Source>;

export const SourcesQuery = z.object({
  application_id: z.string().min(1).max(100).optional(),
  /** ext: only the sources in this ingestion state. */
  status: z.enum(EMBED_STATUSES, { error: `status must be one of ${EMBED_STATUSES.join(', ')}` }).optional(),
});

export const SourceChunk = z.object({
  index: z.number().int(),
  page: z.number().int(),
  text: z.string(),
  url: z.string().optional(),
});
export type SourceChunk = z.infer<typeof SourceChunk>;

export const ClearedSources = z.object({ application_id: z.string(), deleted: z.number().int() });
export type ClearedSources = z.infer<typeof ClearedSources>;
