import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { MODEL_NAMES } from '../src/api/applications.ts';
import { ConfigError } from '../src/config-error.ts';
import { LANGUAGE_CODE } from './ingest/extract/language-packs.ts';
import type { RecognitionOptions } from './ingest/extract/pdf-ocr.ts';

const ProviderModel = z.object({
  base_url: z.string().exactOptional(),
  model: z.string(),
  api_key_env: z.string().exactOptional(),
  /** The model's context window in tokens, for fitting history into the prompt. */
  context_tokens: z.number().int().positive().exactOptional(),
});

const Limits = z.object({
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
const Ocr = z.object({
  enabled: z.boolean().default(true),
  /** Tesseract language codes; each needs its pack, the npm package `@tesseract.js-data/<code>`. */
  languages: z
    .array(z.string().regex(LANGUAGE_CODE, 'must be a language code such as "eng" or "chi_sim"'))
    .min(1)
    .default(['eng']),
});

/** `$CKB_HOME/config.json`: shared by the CLI (url, api_key) and the daemon (everything else). */
export const ConfigFile = z.looseObject({
  url: z.string().optional(),
  api_key: z.string().optional(),
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

export interface DaemonConfig {
  home: string;
  dataDir: string;
  /** Where the metadata lives: a PostgreSQL URL, or undefined for the embedded SQLite file in `dataDir`. */
  databaseUrl: string | undefined;
  /** Where LanceDB keeps the chunks: a local directory, or an object-store URI LanceDB opens itself. */
  lancedbUri: string;
  lancedbStorageOptions: Record<string, string>;
  /** The directory of uploaded files. */
  filesDir: string;
  /** Where clients reach the API, if not at the daemon's own address (a load balancer in front). */
  publicUrl: string | undefined;
  host: string;
  port: number;
  limits: z.infer<typeof Limits>;
  ocr: z.infer<typeof Ocr>;
  models: ConfigFile['models'];
  embeddings: ConfigFile['embeddings'];
  /**
   * Who may fetch private, loopback and link-local addresses for web sources (the SSRF guard): nobody
   * (`block_private_addresses: true`, and the default off loopback), everybody (`false`), or, by default on a
   * loopback daemon, only sources added with an admin key: the machine's owner may index their own local
   * services, but another account must not read them through its chunks.
   */
  privateAddresses: PrivateAddressPolicy;
}

export type PrivateAddressPolicy = 'blocked' | 'allowed' | 'admin-only';

export interface DaemonFlags {
  home?: string | undefined;
  databaseUrl?: string | undefined;
  lancedbUri?: string | undefined;
  filesUri?: string | undefined;
  port?: number | undefined;
  host?: string | undefined;
}

export const DEFAULT_PORT = 7411;
export const DEFAULT_HOST = '127.0.0.1';

export function defaultHome(env: NodeJS.ProcessEnv): string {
  return env['CKB_HOME'] || join(homedir(), '.ckb');
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host.startsWith('127.') || host === '::1';
}

function privateAddressPolicy(block: boolean | undefined, host: string): PrivateAddressPolicy {
  if (block === true) return 'blocked';
  if (block === false) return 'allowed';
  return isLoopback(host) ? 'admin-only' : 'blocked';
}

const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;

/** Whether a LanceDB URI names an object store (`s3://…`, `gs://…`, `az://…`) rather than a directory. */
export function isObjectStoreUri(uri: string): boolean {
  const scheme = SCHEME.exec(uri)?.[1]?.toLowerCase();
  return scheme !== undefined && scheme !== 'file';
}

/** A directory given as an absolute path or a `file://` URI, as a path. */
function localDirectory(value: string, setting: string): string {
  const path = value.toLowerCase().startsWith('file://') ? fileURLToPath(value) : value;
  if (SCHEME.test(path) || !isAbsolute(path))
    throw new ConfigError(`${setting} must be an absolute directory path or a file:// URI (got "${value}")`);
  return path;
}

/**
 * Where the chunks and the uploaded files are. By default both are in the home's data directory; a LanceDB URI
 * of its own (a directory every process reaches) puts the files beside it, in a `files` directory next to it,
 * unless the files have a location of their own. An object store holds chunks only: LanceDB opens it, but the
 * files need a directory.
 */
function dataLocations(
  flags: DaemonFlags,
  env: NodeJS.ProcessEnv,
  file: ConfigFile,
  dataDir: string,
): { lancedbUri: string; filesDir: string } {
  const lancedb = flags.lancedbUri ?? (env['CKB_LANCEDB_URI'] || undefined) ?? file.lancedb_uri;
  const files = flags.filesUri ?? (env['CKB_FILES_URI'] || undefined) ?? file.files_uri;
  const lancedbSetting = '--lancedb-uri, CKB_LANCEDB_URI or lancedb_uri in config.json';
  const filesSetting = '--files-uri, CKB_FILES_URI or files_uri in config.json';
  const lancedbUri =
    lancedb === undefined
      ? join(dataDir, 'db')
      : isObjectStoreUri(lancedb)
        ? lancedb
        : localDirectory(lancedb, lancedbSetting);
  if (files !== undefined) return { lancedbUri, filesDir: localDirectory(files, filesSetting) };
  if (lancedb === undefined) return { lancedbUri, filesDir: join(dataDir, 'files') };
  if (isObjectStoreUri(lancedbUri))
    throw new ConfigError(
      `the chunks are in an object store (${lancedb}), which holds no uploaded files: set ${filesSetting} to a directory every ckb process reaches`,
    );
  return { lancedbUri, filesDir: join(dirname(lancedbUri), 'files') };
}

/** An http(s) URL without a trailing slash, as the daemon builds its own URLs from it. */
function publicUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(
      `CKB_PUBLIC_URL or public_url in config.json must be an http(s) URL (got "${value}")`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(
      `CKB_PUBLIC_URL or public_url in config.json must be an http(s) URL (got "${value}")`,
    );
  return value.replace(/\/+$/, '');
}

/** Pure: flags > CKB_* environment > config file > defaults. */
export function resolveDaemonConfig(input: {
  flags: DaemonFlags;
  env: NodeJS.ProcessEnv;
  file: ConfigFile;
}): DaemonConfig {
  const { flags, env, file } = input;
  const home = flags.home ?? defaultHome(env);
  const envPort = env['CKB_PORT'] ? Number(env['CKB_PORT']) : undefined;
  const host = flags.host ?? env['CKB_HOST'] ?? file.host ?? DEFAULT_HOST;
  const dataDir = join(home, 'data');
  return {
    home,
    dataDir,
    databaseUrl: flags.databaseUrl ?? (env['CKB_DATABASE_URL'] || undefined) ?? file.database_url,
    ...dataLocations(flags, env, file, dataDir),
    publicUrl: publicUrl(env['CKB_PUBLIC_URL'] || file.public_url),
    lancedbStorageOptions: file.lancedb_storage_options ?? {},
    host,
    port: flags.port ?? envPort ?? file.port ?? DEFAULT_PORT,
    limits: Limits.parse(file.limits ?? {}),
    ocr: Ocr.parse(file.ocr ?? {}),
    models: file.models,
    embeddings: file.embeddings,
    privateAddresses: privateAddressPolicy(file.block_private_addresses, host),
  };
}

/** How the extraction workers recognise scanned PDF pages under this configuration; `false` when turned off. */
export function recognitionOptions(config: DaemonConfig): RecognitionOptions | false {
  if (!config.ocr.enabled) return false;
  return {
    languages: config.ocr.languages,
    maxPages: config.limits.ocr_max_pages,
    pageTimeoutMs: config.limits.ocr_page_timeout_ms,
  };
}

export function configPath(home: string): string {
  return join(home, 'config.json');
}

export async function readConfigFile(home: string): Promise<ConfigFile> {
  let text: string;
  try {
    text = await readFile(configPath(home), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  const parsed = ConfigFile.safeParse(JSON.parse(text));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `${configPath(home)} is invalid at ${issue?.path.join('.') || 'the top level'}: ${issue?.message}`,
    );
  }
  return parsed.data;
}

/** Merges `changes` into config.json, atomically and readable by the owner only (it holds the admin key). */
export async function updateConfigFile(home: string, changes: Partial<ConfigFile>): Promise<void> {
  await mkdir(home, { recursive: true, mode: 0o700 });
  const current = await readConfigFile(home);
  const path = configPath(home);
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify({ ...current, ...changes }, null, 2)}\n`, { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, path);
}
