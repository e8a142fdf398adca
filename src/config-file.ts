import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { MODEL_NAMES } from './api/applications.ts';
import { ConfigError } from './config-error.ts';
import { LANGUAGE_CODE } from './language-code.ts';

/** One entry of `models` (or `embeddings`) in `$CKB_HOME/config.json`. */
const ProviderModel = z.object({
  /** An OpenAI-compatible endpoint, e.g. `http://127.0.0.1:11434/v1` for Ollama; default OpenAI's. */
  base_url: z.string().exactOptional(),
  model: z.string(),
  /** The environment variable holding the key; default `OPENAI_API_KEY` for OpenAI, none for other endpoints. */
  api_key_env: z.string().exactOptional(),
  /** The model's context window in tokens, for fitting the history; default 8192 (128000 for OpenAI). */
  context_tokens: z.number().int().positive().exactOptional(),
});

export const Limits = z.object({
  body_bytes: z
    .number()
    .int()
    .positive()
    .default(1024 * 1024 * 8),
  upload_bytes: z
    .number()
    .int()
    .positive()
    .default(50 * 1024 * 1024),
  /**
   * Sources prepared at once. Text and stored files mostly wait their turn in the extraction workers, which send
   * waiting texts in one message, so a deep queue is cheap and makes those messages few (measured with 8 and 32).
   */
  ingest_concurrency: z.number().int().min(1).max(64).default(32),
  /** Bytes of uploaded files and source text each account may store; 0 turns the limit off. */
  account_storage_bytes: z
    .number()
    .int()
    .min(0)
    .default(10 * 1024 ** 3),
  /** Requests per minute per key; 0 turns rate limiting off. */
  rate_limit_per_minute: z.number().int().min(0).default(0),
  extract_timeout_ms: z.number().int().positive().default(60_000),
  crawl_max_pages: z.number().int().positive().default(200),
  crawl_max_depth: z.number().int().min(0).default(3),
  /** Scanned pages recognised at most in one file; the others are named in the source's message. */
  ocr_max_pages: z.number().int().positive().default(200),
  /** Time limit of one scanned page's recognition. */
  ocr_page_timeout_ms: z.number().int().positive().default(30_000),
  /**
   * How long an ingestion job stays leased to a process without a heartbeat (sent every third of it): the time
   * a killed process's jobs wait before another process takes them.
   */
  ingest_lease_ms: z.number().int().min(3_000).max(600_000).default(30_000),
});

/** Text recognition of scanned PDF pages. */
export const Ocr = z.object({
  enabled: z.boolean().default(true),
  /** Tesseract language codes; each needs its pack, the npm package `@tesseract.js-data/<code>`. */
  languages: z
    .array(z.string().regex(LANGUAGE_CODE, 'must be a language code such as "eng" or "chi_sim"'))
    .min(1)
    .default(['eng']),
});

/** `$CKB_HOME/config.json`: shared by the CLI (url, api_key) and the daemon (everything else). */
export const ConfigFile = z.looseObject({
  url: z.url({ protocol: /^https?$/, error: 'url must be an http(s) URL' }).optional(),
  api_key: z.string().min(1, 'api_key must not be empty').optional(),
  host: z.string().optional(),
  port: z.number().int().min(0).max(65535).optional(),
  /** PostgreSQL for the metadata (`postgres://user:password@host:port/database`); else the embedded SQLite. */
  database_url: z.string().optional(),
  /** Where LanceDB keeps the chunks: a directory, or an object-store URI (`s3://bucket/prefix`). */
  lancedb_uri: z.string().optional(),
  /** LanceDB's storage options for an object store (region, endpoint, credentials…), passed as they are. */
  lancedb_storage_options: z.record(z.string(), z.string()).optional(),
  /** The directory of uploaded files, which every process sharing the database must reach. */
  files_uri: z.string().optional(),
  /**
   * The address clients reach the API at when it is not the daemon's own (behind a load balancer): pre-signed
   * upload URLs and the OpenAPI document's server point there.
   */
  public_url: z.string().optional(),
  models: z.partialRecord(z.enum(MODEL_NAMES), ProviderModel).optional(),
  embeddings: ProviderModel.partial().optional(),
  limits: Limits.partial().optional(),
  ocr: Ocr.partial().optional(),
  block_private_addresses: z.boolean().optional(),
});
export type ConfigFile = z.infer<typeof ConfigFile>;

export type ProviderModel = z.infer<typeof ProviderModel>;

export function configFilePath(home: string): string {
  return join(home, 'config.json');
}

/** The home's config.json, checked; undefined when it does not exist yet (the daemon writes it on first start). */
export function readConfigFile(home: string): ConfigFile | undefined {
  const path = configFilePath(home);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError(`cannot read ${path}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ConfigError(`${path} is not valid JSON; fix or delete it`);
  }
  const parsed = ConfigFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(
      `${path} is invalid at ${issue?.path.join('.') || 'the top level'}: ${issue?.message}`,
    );
  }
  return parsed.data;
}
