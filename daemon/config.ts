import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import { ConfigError } from '../src/config-error.ts';
import { type ConfigFile, configFilePath, Limits, Ocr, readConfigFile } from '../src/config-file.ts';
import type { RecognitionOptions } from './ingest/extract/pdf-ocr.ts';

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

/** Merges `changes` into config.json, atomically and readable by the owner only (it holds the admin key). */
export async function updateConfigFile(home: string, changes: Partial<ConfigFile>): Promise<void> {
  await mkdir(home, { recursive: true, mode: 0o700 });
  const current = readConfigFile(home) ?? {};
  const path = configFilePath(home);
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify({ ...current, ...changes }, null, 2)}\n`, { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, path);
}
