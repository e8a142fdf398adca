import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ErrorBody } from '../../src/api/errors.ts';
import { startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { createKnowledgeApplication } from '../support/knowledge.ts';
import { callTool, textOf } from '../support/mcp.ts';
import { type RunningServer, startServer } from '../support/static-server.ts';

// The MCP server on the daemon (POST /mcp), driven by the MCP SDK's own client over Streamable HTTP.

let daemon: TestDaemon;
let knowledge: { id: string; text: string; pdf: string };
let client: Client;
let files: RunningServer;

async function connect(key: string): Promise<Client> {
  const connected = new Client({ name: 'ckb-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${daemon.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await connected.connect(transport);
  return connected;
}

const call = (name: string, args: Record<string, unknown> = {}, via = client) => callTool(via, name, args);

beforeAll(async () => {
  daemon = await startTestDaemon();
  knowledge = await createKnowledgeApplication(daemon, {
    name: 'Field notes',
    description: 'Lighthouses and volcanoes',
  });
  files = await startServer((request, response) => {
    if (request.url !== '/notes/tides.md') {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not here');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/markdown' });
    response.end('# Tides\n\nThe spring tide at the Bell Rock rises four metres above the reef.\n');
  });
  client = await connect(daemon.apiKey);
});

afterAll(async () => {
  await client?.close();
  await files?.close();
  await daemon?.close();
});

describe('tools', () => {
  test('five tools, each with a description a model can choose by and a JSON schema of its input', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'add_source',
      'ask',
      'list_applications',
      'list_sources',
      'search',
    ]);
    for (const tool of tools) {
      expect(tool.description?.length, tool.name).toBeGreaterThan(100);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
    }
    const search = tools.find((tool) => tool.name === 'search');
    expect(search?.inputSchema.required).toEqual(['application_id', 'query']);
    expect(Object.keys(search?.inputSchema.properties ?? {})).toEqual(['application_id', 'query', 'limit']);
    const add = tools.find((tool) => tool.name === 'add_source');
    // Over HTTP a file is a URL or an uploaded file's id, never a path on the daemon's machine.
    expect(JSON.stringify(add?.inputSchema)).toContain('presigned-url');
    expect(JSON.stringify(add?.inputSchema)).not.toContain('path of a file on this machine');
  });

  test('list_applications and list_sources', async () => {
    const applications = await call('list_applications');
    expect(applications.isError).toBeUndefined();
    expect(textOf(applications)).toContain(`- Field notes (id ${knowledge.id}): Lighthouses and volcanoes`);
    expect(applications.structuredContent).toEqual({
      applications: (await daemon.call('GET', '/applications')).body,
    });

    const sources = await call('list_sources', { application_id: knowledge.id });
    expect(textOf(sources)).toContain(
      `- volcanoes.pdf (id ${knowledge.pdf}, file): COMPLETED, 2 chunks from 2 pages`,
    );
    expect(textOf(sources)).toContain(`- Lighthouse notes (id ${knowledge.text}, text): COMPLETED`);
    expect(sources.structuredContent).toEqual({
      sources: (await daemon.call('GET', `/applications/${knowledge.id}/sources`)).body,
    });
  });

  test('search: passages with source, page and score', async () => {
    const result = await call('search', {
      application_id: knowledge.id,
      query: 'Which towns did Vesuvius destroy?',
      limit: 2,
    });
    const { results } = result.structuredContent as {
      results: { source: string; page: number; text: string }[];
    };
    expect(results).toHaveLength(2);
    expect(results[0]).toMatchObject({ source: 'volcanoes.pdf', page: 2, source_id: knowledge.pdf });
    expect(results[0]?.text).toContain('Pompeii');
    expect(textOf(result)).toMatch(
      /^\[1\] volcanoes\.pdf, page 2 \(score \d\.\d\d\)\nMount Vesuvius destroyed/,
    );
  });

  test('ask: a cited answer and a conversation that a follow-up continues', async () => {
    const first = await call('ask', {
      application_id: knowledge.id,
      question: 'When was the Bell Rock Lighthouse completed?',
    });
    const reply = first.structuredContent as { conversation_id: string; message: string; sources: unknown[] };
    expect(reply.message).toContain('1810');
    expect(reply.sources).toEqual([
      { source: 'Lighthouse notes', page: 1, score: expect.any(Number), source_id: knowledge.text },
    ]);
    expect(textOf(first)).toContain('Sources:\n- Lighthouse notes, page 1 (score ');
    expect(textOf(first)).toContain(`conversation_id: ${reply.conversation_id}`);

    const followUp = await call('ask', {
      application_id: knowledge.id,
      question: 'and who funded it?',
      conversation_id: reply.conversation_id,
    });
    expect((followUp.structuredContent as { message: string }).message).toContain(
      'Northern Lighthouse Board',
    );
    expect((followUp.structuredContent as { conversation_id: string }).conversation_id).toBe(
      reply.conversation_id,
    );
    const stored = await daemon.call('GET', `/conversations/${reply.conversation_id}`);
    expect(stored.body.messages).toHaveLength(4);
  });

  test('add_source: text and a file by URL, searchable when the tool answers', async () => {
    const application = (await daemon.call('POST', '/applications', { name: 'Added over MCP' })).body.id;
    const text = await call('add_source', {
      application_id: application,
      type: 'text',
      content: 'The keeper of the Bell Rock kept a log of every passing ship in a green ledger.',
    });
    expect(text.isError).toBeUndefined();
    const source = (text.structuredContent as { source: Record<string, unknown> }).source;
    expect(source).toMatchObject({
      application_id: application,
      type: 'text',
      name: 'The keeper of the Bell Rock kept a log of every passing shi…',
      embed_status: 'COMPLETED',
      content: null,
    });
    expect(textOf(text)).toMatch(
      /COMPLETED, 1 chunks from 1 pages\. It can be searched and asked about now\.$/,
    );

    const file = await call('add_source', {
      application_id: application,
      type: 'file',
      content: `${files.origin}/notes/tides.md`,
    });
    expect((file.structuredContent as { source: Record<string, unknown> }).source).toMatchObject({
      name: 'tides.md',
      embed_status: 'COMPLETED',
    });
    const found = await call('search', {
      application_id: application,
      query: 'How high is the spring tide?',
    });
    expect((found.structuredContent as { results: { source: string }[] }).results[0]?.source).toBe(
      'tides.md',
    );
  });

  test('add_source: a source that fails ingestion is an error result saying why', async () => {
    const result = await call('add_source', {
      application_id: knowledge.id,
      type: 'file',
      content: `${files.origin}/missing.md`,
      name: 'program',
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Added source program \(id src_\w+\) to application app_\w+: FAILED: /);
    await daemon.call(
      'DELETE',
      `/sources/${(result.structuredContent as { source: { id: string } }).source.id}`,
    );
  });
});

describe('errors are tool results, and the server keeps answering', () => {
  test("an unknown application: the API's message", async () => {
    const result = await call('search', { application_id: 'app_00000000000000000000000000', query: 'tides' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('application app_00000000000000000000000000 not found');
  });

  test("invalid input: the API's or the schema's message", async () => {
    const path = await call('add_source', {
      application_id: knowledge.id,
      type: 'file',
      content: '/etc/passwd',
    });
    expect(path.isError).toBe(true);
    expect(textOf(path)).toBe('content must be a file id (file_…) or an http(s) URL');

    const missing = await call('search', { application_id: knowledge.id });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/query/);

    expect((await call('list_applications')).isError).toBeUndefined();
  });
});

describe('resources', () => {
  test('applications are resources with their sources', async () => {
    const { resources } = await client.listResources();
    const resource = resources.find((candidate) => candidate.uri === `ckb://applications/${knowledge.id}`);
    expect(resource).toMatchObject({ name: 'Field notes', mimeType: 'application/json' });
    const read = await client.readResource({ uri: `ckb://applications/${knowledge.id}` });
    const content = read.contents[0] as { text: string; mimeType: string };
    expect(content.mimeType).toBe('application/json');
    const parsed = JSON.parse(content.text);
    expect(parsed.application).toEqual((await daemon.call('GET', `/applications/${knowledge.id}`)).body);
    expect(parsed.sources).toEqual((await daemon.call('GET', `/applications/${knowledge.id}/sources`)).body);
    expect(parsed.sources.map((source: { id: string }) => source.id)).toEqual(
      expect.arrayContaining([knowledge.text, knowledge.pdf]),
    );
    await expect(
      client.readResource({ uri: 'ckb://applications/app_00000000000000000000000000' }),
    ).rejects.toThrow(/application app_00000000000000000000000000 not found/);
  });
});

describe('keys and accounts', () => {
  test('401 in the contract shape without a valid key; GET is 405', async () => {
    for (const authorization of [undefined, 'Bearer ckb_wrong']) {
      const response = await fetch(`${daemon.url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(authorization ? { authorization } : {}),
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(response.status).toBe(401);
      expect(ErrorBody.parse(await response.json()).error.type).toBe('unauthorized');
    }
    await expect(connect('ckb_wrong')).rejects.toThrow(/unknown or revoked API key/);
    const get = await daemon.call('GET', '/mcp');
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  test("another account's key sees only its own applications", async () => {
    const other = (await daemon.call('POST', '/admin/keys', { account: 'other' })).body.key;
    const stranger = await connect(other);
    try {
      expect((await call('list_applications', {}, stranger)).structuredContent).toEqual({ applications: [] });
      const search = await call('search', { application_id: knowledge.id, query: 'lighthouse' }, stranger);
      expect(search.isError).toBe(true);
      expect(textOf(search)).toBe(`application ${knowledge.id} not found`);
      expect((await stranger.listResources()).resources).toEqual([]);
    } finally {
      await stranger.close();
    }
  });
});
