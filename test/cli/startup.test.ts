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
  '/@modelcontextprotocol/',
];

/** The files `--help` may load: the entry, the exit codes, and the program bundled with commander. */
const STARTUP = ['/dist/src/cli/main.js', '/dist/src/cli/exit.js', '/dist/src/cli/program.js'];

const ownFiles = (loaded: string[]) => loaded.filter((url) => url.startsWith('file:'));

describe('start-up', () => {
  it('ckb --help loads three files of ours, commander bundled in, and nothing from node_modules', async () => {
    const loaded = await modulesLoadedBy(['--help']);
    expect(
      ownFiles(loaded)
        .map((url) => url.replace(/^.*(?=\/dist\/)/, ''))
        .sort(),
    ).toEqual(STARTUP.toSorted());
    for (const heavy of HEAVY) expect(loaded.filter((url) => url.includes(heavy))).toEqual([]);
  });

  it('a subcommand help and a usage error load no more', async () => {
    for (const args of [
      ['source', 'add', '--help'],
      ['app', 'list', '--bogus'],
    ]) {
      const loaded = await modulesLoadedBy(args);
      expect(ownFiles(loaded).filter((url) => !STARTUP.some((file) => url.endsWith(file)))).toEqual([]);
    }
  });

  it('the bundle keeps every action in its own file, loaded only when it runs', async () => {
    const loaded = await modulesLoadedBy(['completion', 'bash']);
    expect(ownFiles(loaded).some((url) => url.endsWith('/dist/src/cli/completion.js'))).toBe(true);
    expect(loaded.filter((url) => url.includes('/node_modules/'))).toEqual([]);
  });

  it('`ckb mcp --help` loads none of the heavy modules', async () => {
    const loaded = await modulesLoadedBy(['mcp', '--help']);
    for (const heavy of HEAVY) expect(loaded.filter((url) => url.includes(heavy))).toEqual([]);
  });

  it('an API command loads the client but never LanceDB, Koa, openai or the daemon', async () => {
    const loaded = await modulesLoadedBy(['app', 'list']);
    expect(loaded.some((url) => url.includes('/undici/'))).toBe(true);
    for (const heavy of ['@lancedb', '/koa', '/openai/', '/dist/daemon/']) {
      expect(loaded.filter((url) => url.includes(heavy))).toEqual([]);
    }
  });

  it('ckb mcp loads the MCP SDK and the client, never LanceDB, Koa or the daemon', async () => {
    // Its stdin is closed at once, so the server starts, sees the end of its input and exits.
    const loaded = await modulesLoadedBy(['mcp']);
    expect(loaded.some((url) => url.includes('/@modelcontextprotocol/sdk/'))).toBe(true);
    expect(loaded.some((url) => url.endsWith('/dist/src/mcp/tools.js'))).toBe(true);
    for (const heavy of ['@lancedb', '/koa', '/openai/', '/dist/daemon/']) {
      expect(loaded.filter((url) => url.includes(heavy))).toEqual([]);
    }
  });
});
