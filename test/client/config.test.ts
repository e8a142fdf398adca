import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_URL, loadConfig, requireApiKey, resolveConfig, resolveHome } from '../../src/config.ts';
import { ConfigError } from '../../src/config-error.ts';
import { readConfigFile } from '../../src/config-file.ts';

const userHome = '/home/someone';

describe('resolveConfig', () => {
  it('falls back to the defaults', () => {
    expect(resolveConfig({ flags: {}, env: {}, file: undefined, userHome })).toEqual({
      url: DEFAULT_URL,
      urlOrigin: 'default',
      apiKey: undefined,
      home: '/home/someone/.ckb',
    });
  });

  it('prefers flags over the environment over the file', () => {
    const file = { url: 'http://file.example:1', api_key: 'ckb_file' };
    const env = { CKB_URL: 'http://env.example:2', CKB_API_KEY: 'ckb_env', CKB_HOME: '/env/home' };
    const flags = { url: 'http://flag.example:3', apiKey: 'ckb_flag', home: '/flag/home' };

    expect(resolveConfig({ flags, env, file, userHome })).toMatchObject({
      url: 'http://flag.example:3',
      urlOrigin: 'flag',
      apiKey: 'ckb_flag',
      home: '/flag/home',
    });
    expect(resolveConfig({ flags: {}, env, file, userHome })).toMatchObject({
      url: 'http://env.example:2',
      urlOrigin: 'env',
      apiKey: 'ckb_env',
      home: '/env/home',
    });
    expect(resolveConfig({ flags: {}, env: {}, file, userHome })).toMatchObject({
      url: 'http://file.example:1',
      urlOrigin: 'file',
      apiKey: 'ckb_file',
    });
  });

  it('treats empty values as unset and trims a trailing slash', () => {
    const config = resolveConfig({
      flags: { url: '  ', apiKey: '' },
      env: { CKB_URL: 'http://127.0.0.1:9000/', CKB_API_KEY: ' ' },
      file: { api_key: 'ckb_file' },
      userHome,
    });
    expect(config.url).toBe('http://127.0.0.1:9000');
    expect(config.apiKey).toBe('ckb_file');
  });

  it('names the flag and the environment variable when a URL is wrong', () => {
    expect(() => resolveConfig({ flags: { url: 'not a url' }, env: {}, file: undefined })).toThrow(
      /--daemon-url flag.*CKB_URL/,
    );
    expect(() => resolveConfig({ flags: {}, env: { CKB_URL: 'ftp://x' }, file: undefined })).toThrow(
      /CKB_URL environment variable must be an http\(s\) URL/,
    );
  });

  it('resolves the home from the flag, then CKB_HOME, then ~/.ckb', () => {
    expect(resolveHome({ home: '/a' }, { CKB_HOME: '/b' }, userHome)).toBe('/a');
    expect(resolveHome({}, { CKB_HOME: '/b' }, userHome)).toBe('/b');
    expect(resolveHome({}, {}, userHome)).toBe('/home/someone/.ckb');
  });

  it('asks for --api-key or CKB_API_KEY when no key is known', () => {
    const config = resolveConfig({ flags: {}, env: {}, file: undefined, userHome });
    expect(() => requireApiKey(config)).toThrow(ConfigError);
    expect(() => requireApiKey(config)).toThrow(/--api-key.*CKB_API_KEY/);
    expect(requireApiKey({ ...config, apiKey: 'ckb_x' })).toBe('ckb_x');
  });
});

describe('config file', () => {
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'ckb-config-'));
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('is optional', () => {
    expect(readConfigFile(home)).toBeUndefined();
  });

  it('reads url and api_key beside the daemon’s settings, and reports a bad one of those too', async () => {
    await writeFile(
      join(home, 'config.json'),
      JSON.stringify({ url: 'http://127.0.0.1:7500', api_key: 'ckb_abc', models: { 'lm-4': {} } }),
    );
    // One schema for the one file: the CLI names the daemon's broken setting rather than let it pass.
    expect(() => readConfigFile(home)).toThrow(/config\.json is invalid at models\.lm-4\.model/);
    await writeFile(
      join(home, 'config.json'),
      JSON.stringify({
        url: 'http://127.0.0.1:7500',
        api_key: 'ckb_abc',
        models: { 'lm-4': { model: 'llama' } },
      }),
    );
    expect(readConfigFile(home)).toMatchObject({ url: 'http://127.0.0.1:7500', api_key: 'ckb_abc' });
    expect(loadConfig({}, { CKB_HOME: home })).toMatchObject({
      url: 'http://127.0.0.1:7500',
      urlOrigin: 'file',
      apiKey: 'ckb_abc',
      home,
    });
  });

  it('rejects invalid JSON and wrong types with the path in the message', async () => {
    await writeFile(join(home, 'config.json'), '{ nope');
    expect(() => readConfigFile(home)).toThrow(/config\.json is not valid JSON/);
    await writeFile(join(home, 'config.json'), JSON.stringify({ url: 42 }));
    expect(() => readConfigFile(home)).toThrow(/config\.json is invalid/);
  });

  it('reports a file it cannot read', async () => {
    await mkdir(join(home, 'config.json'));
    expect(() => readConfigFile(home)).toThrow(/cannot read .*config\.json/);
  });
});
