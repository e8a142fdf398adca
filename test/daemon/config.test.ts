import { describe, expect, test } from 'vitest';
import { type DaemonFlags, resolveDaemonConfig } from '../../daemon/config.ts';
import { ConfigError } from '../../src/config-error.ts';
import type { ConfigFile } from '../../src/config-file.ts';

const home = '/home/ada/.ckb';

function resolve(input: { flags?: DaemonFlags; env?: NodeJS.ProcessEnv; file?: ConfigFile }) {
  return resolveDaemonConfig({
    flags: { home, ...input.flags },
    env: input.env ?? {},
    file: input.file ?? {},
  });
}

describe('where the chunks and the uploaded files are', () => {
  test('by default both are in the home', () => {
    const config = resolve({});
    expect(config.lancedbUri).toBe('/home/ada/.ckb/data/db');
    expect(config.filesDir).toBe('/home/ada/.ckb/data/files');
    expect(config.lancedbStorageOptions).toEqual({});
  });

  test('a LanceDB directory of its own puts the files beside it', () => {
    const config = resolve({ env: { CKB_LANCEDB_URI: '/mnt/ckb/db' } });
    expect(config.lancedbUri).toBe('/mnt/ckb/db');
    expect(config.filesDir).toBe('/mnt/ckb/files');
    expect(resolve({ file: { lancedb_uri: 'file:///mnt/shared/chunks' } }).filesDir).toBe(
      '/mnt/shared/files',
    );
  });

  test('flags win over the environment, which wins over config.json', () => {
    const file = { lancedb_uri: '/from/file/db', files_uri: '/from/file/files' };
    const env = { CKB_LANCEDB_URI: '/from/env/db', CKB_FILES_URI: '/from/env/files' };
    expect(resolve({ file })).toMatchObject({ lancedbUri: '/from/file/db', filesDir: '/from/file/files' });
    expect(resolve({ file, env })).toMatchObject({ lancedbUri: '/from/env/db', filesDir: '/from/env/files' });
    const flags = { lancedbUri: '/from/flag/db', filesUri: 'file:///from/flag/files' };
    expect(resolve({ file, env, flags })).toMatchObject({
      lancedbUri: '/from/flag/db',
      filesDir: '/from/flag/files',
    });
  });

  test('an object store holds the chunks, with its storage options, and the files need a directory', () => {
    const file = { lancedb_uri: 's3://bucket/ckb', lancedb_storage_options: { region: 'eu-west-1' } };
    expect(() => resolve({ file })).toThrow(ConfigError);
    expect(() => resolve({ file })).toThrow(/CKB_FILES_URI/);
    const config = resolve({ file, env: { CKB_FILES_URI: '/mnt/ckb/files' } });
    expect(config).toMatchObject({
      lancedbUri: 's3://bucket/ckb',
      lancedbStorageOptions: { region: 'eu-west-1' },
      filesDir: '/mnt/ckb/files',
    });
  });

  test('a relative path or an object store for the files is refused, naming the setting', () => {
    expect(() => resolve({ env: { CKB_LANCEDB_URI: 'shared/db' } })).toThrow(/CKB_LANCEDB_URI.*absolute/);
    expect(() => resolve({ env: { CKB_FILES_URI: 's3://bucket/files' } })).toThrow(/CKB_FILES_URI.*absolute/);
  });

  test('the lease of an ingestion job is 30 s unless configured', () => {
    expect(resolve({}).limits.ingest_lease_ms).toBe(30_000);
    expect(resolve({ file: { limits: { ingest_lease_ms: 5_000 } } }).limits.ingest_lease_ms).toBe(5_000);
  });

  test('a public URL for a load balancer in front is an http(s) URL, kept without its trailing slash', () => {
    expect(resolve({}).publicUrl).toBeUndefined();
    expect(resolve({ env: { CKB_PUBLIC_URL: 'https://ckb.example.com/' } }).publicUrl).toBe(
      'https://ckb.example.com',
    );
    expect(resolve({ file: { public_url: 'http://10.0.0.10:8080' } }).publicUrl).toBe(
      'http://10.0.0.10:8080',
    );
    expect(() => resolve({ file: { public_url: 'ckb.example.com' } })).toThrow(/public_url.*http/);
  });
});
