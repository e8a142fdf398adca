import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliEnvironment, freePort, runCli } from './run.ts';

const recorder = resolve(import.meta.dirname, 'record-modules.mjs');

async function modulesLoadedBy(args: string[]): Promise<string[]> {
  const url = `http://127.0.0.1:${await freePort()}`;
  const result = await runCli(args, {
    env: cliEnvironment('/nonexistent', url),
    nodeOptions: ['--import', recorder],
  });
  const line = result.stderr.split('\n').find((text) => text.startsWith('LOADED_MODULES '));
  expect(line).toBeDefined();
  return JSON.parse(line?.slice('LOADED_MODULES '.length) ?? '[]');
}

const HEAVY = [
  '@lancedb',
  '/koa',
  '/openai/',
  '/undici/',
  '/zod/',
  '/chalk/',
  '/ora/',
  '/@inquirer/',
  '/dist/daemon/',
];

describe('start-up', () => {
  it('ckb --help loads commander and the command files only', async () => {
    const loaded = await modulesLoadedBy(['--help']);
    expect(loaded.some((url) => url.includes('/commander/'))).toBe(true);
    expect(loaded.some((url) => url.endsWith('/dist/src/cli/apps.js'))).toBe(true);
    for (const heavy of HEAVY) expect(loaded.filter((url) => url.includes(heavy))).toEqual([]);
  });

  it('a subcommand help loads no more', async () => {
    const loaded = await modulesLoadedBy(['source', 'add', '--help']);
    for (const heavy of HEAVY) expect(loaded.filter((url) => url.includes(heavy))).toEqual([]);
  });

  it('an API command loads the client but never LanceDB, Koa, openai or the daemon', async () => {
    const loaded = await modulesLoadedBy(['app', 'list']);
    expect(loaded.some((url) => url.includes('/undici/'))).toBe(true);
    for (const heavy of ['@lancedb', '/koa', '/openai/', '/dist/daemon/']) {
      expect(loaded.filter((url) => url.includes(heavy))).toEqual([]);
    }
  });
});
