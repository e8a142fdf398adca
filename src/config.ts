import { homedir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from './config-error.ts';
import { type ConfigFile, configFilePath, readConfigFile } from './config-file.ts';

export const DEFAULT_URL = 'http://127.0.0.1:7411';

export interface ConfigFlags {
  url?: string | undefined;
  apiKey?: string | undefined;
  home?: string | undefined;
}

export type Origin = 'flag' | 'env' | 'file' | 'default';

export interface ResolvedConfig {
  url: string;
  urlOrigin: Origin;
  apiKey: string | undefined;
  home: string;
}

type Environment = Readonly<Record<string, string | undefined>>;

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** `--home` > `CKB_HOME` > `~/.ckb`; the config file lives in the home, so it is resolved first. */
export function resolveHome(flags: ConfigFlags, env: Environment, userHome = homedir()): string {
  return nonEmpty(flags.home) ?? nonEmpty(env['CKB_HOME']) ?? join(userHome, '.ckb');
}

function checkUrl(url: string, origin: Origin): string {
  const where = {
    flag: 'the --daemon-url flag',
    env: 'the CKB_URL environment variable',
    file: 'config.json',
    default: '',
  };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(
      `${where[origin]} is not a valid URL: ${url} (set --daemon-url or CKB_URL to an http(s) URL)`,
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ConfigError(
      `${where[origin]} must be an http(s) URL, got ${url} (set --daemon-url or CKB_URL)`,
    );
  }
  return url.replace(/\/+$/, '');
}

/** Pure precedence: flags > CKB_* environment > $CKB_HOME/config.json > defaults. */
export function resolveConfig(input: {
  flags: ConfigFlags;
  env: Environment;
  file: ConfigFile | undefined;
  userHome?: string;
}): ResolvedConfig {
  const { flags, env, file } = input;
  const home = resolveHome(flags, env, input.userHome);
  const candidates: [string | undefined, Origin][] = [
    [nonEmpty(flags.url), 'flag'],
    [nonEmpty(env['CKB_URL']), 'env'],
    [file?.url, 'file'],
  ];
  const [url, urlOrigin] = candidates.find(
    (candidate): candidate is [string, Origin] => candidate[0] !== undefined,
  ) ?? [DEFAULT_URL, 'default'];
  return {
    url: checkUrl(url, urlOrigin),
    urlOrigin,
    apiKey: nonEmpty(flags.apiKey) ?? nonEmpty(env['CKB_API_KEY']) ?? file?.api_key,
    home,
  };
}

export function loadConfig(flags: ConfigFlags, env: Environment = process.env): ResolvedConfig {
  const home = resolveHome(flags, env);
  return resolveConfig({ flags, env, file: readConfigFile(home) });
}

export function requireApiKey(config: ResolvedConfig): string {
  if (config.apiKey !== undefined) return config.apiKey;
  throw new ConfigError(
    `no API key: pass --api-key or set CKB_API_KEY (the daemon writes one to ${configFilePath(config.home)} on first start)`,
  );
}
