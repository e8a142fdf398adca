import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { LIGHTHOUSE_NOTES, volcanoPdf } from '../support/knowledge.ts';
import { callTool, textOf } from '../support/mcp.ts';
import { cliEnvironment, freePort } from './run.ts';

// `ckb mcp`, the real CLI started by the MCP SDK's own stdio client, as Claude Desktop or Cursor start it.

const ckb = resolve(import.meta.dirname, '../../bin/ckb');

let daemon: TestDaemon;
let scratch: string;
let client: Client;
let application: string;
const stderr: string[] = [];

async function connect(env: NodeJS.ProcessEnv, log = stderr): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [ckb, 'mcp'],
    env: env as Record<string, string>,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => log.push(chunk.toString()));
  const connected = new Client({ name: 'ckb-test', version: '1.0.0' });
  await connected.connect(transport);
  return connected;
}

const call = (name: string, args: Record<string, unknown> = {}, via = client) => callTool(via, name, args);

beforeAll(async () => {
  daemon = await startTestDaemon();
  scratch = await mkdtemp(join(tmpdir(), 'ckb-mcp-'));
  application = (await daemon.call('POST', '/applications', { name: 'Field notes' })).body.id;
  client = await connect(cliEnvironment(daemon.home, daemon.url));
});

afterAll(async () => {
  await client?.close();
  await daemon?.close();
  await rm(scratch, { recursive: true, force: true });
});

describe('ckb mcp over stdio', () => {
  test('serves the same five tools as the daemon, with files taken by local path', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'add_source',
      'ask',
      'list_applications',
      'list_sources',
      'search',
    ]);
    const add = tools.find((tool) => tool.name === 'add_source');
    expect(JSON.stringify(add?.inputSchema)).toContain('the absolute path of a file on this machine');
  });

  test('add_source uploads local files through pre-signed URLs; search and ask answer from them', async () => {
    const pdf = join(scratch, 'volcanoes.pdf');
    await writeFile(pdf, await volcanoPdf());
    const notes = join(scratch, 'lighthouse.md');
    await writeFile(notes, `# The Bell Rock\n\n${LIGHTHOUSE_NOTES}\n`);

    for (const path of [pdf, notes]) {
      const added = await call('add_source', { application_id: application, type: 'file', content: path });
      expect(added.isError, textOf(added)).toBeUndefined();
      expect((added.structuredContent as { source: unknown }).source).toMatchObject({
        type: 'file',
        name: path.split('/').pop(),
        embed_status: 'COMPLETED',
        content: null,
      });
    }
    // The files went through the daemon's upload flow, named after them.
    const uploaded = (await daemon.call('GET', '/files')).body.map((file: { name: string }) => file.name);
    expect(uploaded.sort()).toEqual(['lighthouse.md', 'volcanoes.pdf']);

    const found = await call('search', {
      application_id: application,
      query: 'Which towns did Vesuvius destroy?',
    });
    expect((found.structuredContent as { results: unknown[] }).results[0]).toMatchObject({
      source: 'volcanoes.pdf',
      page: 2,
    });

    const asked = await call('ask', {
      application_id: application,
      question: 'Who funded the Bell Rock Lighthouse?',
    });
    const reply = asked.structuredContent as { message: string; conversation_id: string; sources: unknown[] };
    expect(reply.message).toContain('Northern Lighthouse Board');
    expect(reply.sources[0]).toMatchObject({ source: 'lighthouse.md', page: 1 });
    expect((await daemon.call('GET', `/conversations/${reply.conversation_id}`)).status).toBe(200);

    const listed = await call('list_applications');
    expect(textOf(listed)).toContain(`- Field notes (id ${application})`);
    const resources = await client.listResources();
    expect(resources.resources.map((resource) => resource.uri)).toEqual([
      `ckb://applications/${application}`,
    ]);
  });

  test('what the API or the file system refuses is an error result with the message, and the server goes on', async () => {
    const unknown = await call('list_sources', { application_id: 'app_00000000000000000000000000' });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toBe('application app_00000000000000000000000000 not found');

    const missing = await call('add_source', {
      application_id: application,
      type: 'file',
      content: join(scratch, 'nowhere.pdf'),
    });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toBe(`no such file: ${join(scratch, 'nowhere.pdf')}`);

    const folder = join(scratch, 'folder');
    await mkdir(folder, { recursive: true });
    const directory = await call('add_source', {
      application_id: application,
      type: 'file',
      content: folder,
    });
    expect(directory.isError).toBe(true);
    expect(textOf(directory)).toMatch(/is a folder: add its files one at a time/);

    const unsupported = join(scratch, 'program.exe');
    await writeFile(unsupported, 'MZ');
    const refused = await call('add_source', {
      application_id: application,
      type: 'file',
      content: unsupported,
    });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/\.exe/);

    expect((await call('list_sources', { application_id: application })).isError).toBeUndefined();
    // Nothing but protocol messages went to stdout: the client would have failed to parse anything else.
    expect(stderr.join('')).not.toMatch(/Error|at .*\.js/);
  });

  test('a daemon that cannot be reached is an error result, not a crash', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const log: string[] = [];
    const unreachable = await connect(cliEnvironment(daemon.home, url), log);
    try {
      for (let attempt = 0; attempt < 2; attempt++) {
        const result = await call('list_applications', {}, unreachable);
        expect(result.isError).toBe(true);
        expect(textOf(result)).toBe(
          `cannot reach the ckb daemon at ${url}; start it with \`ckb daemon start\` (autostart is off: CKB_NO_AUTOSTART=1)`,
        );
      }
      expect((await unreachable.listTools()).tools).toHaveLength(5);
    } finally {
      await unreachable.close();
    }
  });

  test('the daemon is started in the background at the first tool call, as other commands do', async () => {
    const home = await mkdtemp(join(tmpdir(), 'ckb-mcp-autostart-'));
    const url = `http://127.0.0.1:${await freePort()}`;
    const { CKB_NO_AUTOSTART: _off, ...env } = cliEnvironment(home, url);
    const log: string[] = [];
    const started = await connect(env, log);
    try {
      const result = await call('list_applications', {}, started);
      expect(result.isError).toBeUndefined();
      expect(result.structuredContent).toEqual({ applications: [] });
      expect(log.join('')).toContain(`no daemon at ${url}; starting one in the background`);
    } finally {
      await started.close();
      const state = join(home, 'daemon.json');
      if (existsSync(state)) process.kill(JSON.parse(await readFile(state, 'utf8')).pid, 'SIGTERM');
      await waitUntilGone(state);
      await rm(home, { recursive: true, force: true });
    }
  });
});

async function waitUntilGone(path: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (existsSync(path) && Date.now() < deadline) await new Promise((done) => setTimeout(done, 50));
}
