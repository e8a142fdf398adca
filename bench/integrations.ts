// ckb inside other AI tools: what MCP and the OpenAI-compatible API add to the same work done through the
// contract's API, on the SQuAD documents. `ckb mcp` start-up to its first answer; a search through MCP (stdio
// and HTTP) against POST /applications/{id}/search; an offline answer through /v1/chat/completions against
// POST /conversations.
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type BenchServer, median, percentile, round, startServer } from './support.ts';

const squad = resolve(import.meta.dirname, '../../shared/corpus/qa/squad-v1.1-dev');
const ckb = resolve(import.meta.dirname, '../bin/ckb');
const CALLS = 60;
const STARTS = 10;

async function loadQuestions(): Promise<string[]> {
  const lines = (await readFile(join(squad, 'questions.jsonl'), 'utf8')).trim().split('\n');
  return lines
    .filter((_, index) => index % 37 === 0)
    .slice(0, CALLS)
    .map((line) => (JSON.parse(line) as { question: string }).question);
}

async function ingest(daemon: BenchServer, application: string): Promise<number> {
  const docs = await readdir(join(squad, 'docs'));
  for (const doc of docs) {
    const content = await readFile(join(squad, 'docs', doc), 'utf8');
    await daemon.call('POST', '/sources', { application_id: application, name: doc, type: 'text', content });
  }
  for (;;) {
    const sources = await daemon.call('GET', `/applications/${application}/sources`);
    if (sources.every((source: { embed_status: string }) => source.embed_status === 'COMPLETED'))
      return docs.length;
    await new Promise((done) => setTimeout(done, 200));
  }
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

async function each(questions: string[], work: (question: string) => Promise<unknown>) {
  const milliseconds: number[] = [];
  for (const question of questions) milliseconds.push(await timed(() => work(question)));
  return {
    calls: milliseconds.length,
    p50_ms: round(median(milliseconds), 1),
    p95_ms: round(percentile(milliseconds, 95), 1),
  };
}

function stdioClient(daemon: BenchServer): { client: Client; transport: StdioClientTransport } {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [ckb, 'mcp'],
    env: {
      ...(process.env as Record<string, string>),
      CKB_HOME: daemon.home,
      CKB_URL: daemon.url,
      CKB_NO_AUTOSTART: '1',
    },
    stderr: 'ignore',
  });
  return { client: new Client({ name: 'bench', version: '1' }), transport };
}

export async function run(): Promise<Record<string, unknown>> {
  const daemon = await startServer('daemon');
  try {
    const questions = await loadQuestions();
    const application = (await daemon.call('POST', '/applications', { name: 'squad' })).id;
    const documents = await ingest(daemon, application);

    const starts: number[] = [];
    for (let start = 0; start < STARTS; start++) {
      const { client, transport } = stdioClient(daemon);
      starts.push(await timed(() => client.connect(transport)));
      await client.close();
    }

    const { client: stdio, transport } = stdioClient(daemon);
    await stdio.connect(transport);
    const http = new Client({ name: 'bench', version: '1' });
    await http.connect(
      new StreamableHTTPClientTransport(new URL(`${daemon.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${daemon.apiKey}` } },
      }),
    );
    const search = (client: Client) => (query: string) =>
      client.callTool({ name: 'search', arguments: { application_id: application, query, limit: 5 } });
    try {
      // One untimed pass warms the caches (and loads the MCP SDK in the daemon) for every path alike.
      for (const path of [search(stdio), search(http)]) await path(questions[0]!);
      const rest = await each(questions, (query) =>
        daemon.call('POST', `/applications/${application}/search`, { query, limit: 5 }),
      );
      const overStdio = await each(questions, search(stdio));
      const overHttp = await each(questions, search(http));
      const conversation = await each(questions, (message) =>
        daemon.call('POST', '/conversations', { application_id: application, message }),
      );
      const completion = await each(questions, (content) =>
        daemon.call('POST', '/v1/chat/completions', {
          model: application,
          messages: [{ role: 'user', content }],
        }),
      );
      return {
        documents,
        mcp_stdio_start_ms: {
          starts: STARTS,
          p50: round(median(starts), 1),
          p95: round(percentile(starts, 95), 1),
        },
        search: {
          rest,
          mcp_stdio: overStdio,
          mcp_http: overHttp,
          mcp_stdio_over_rest_p50: round(overStdio.p50_ms / rest.p50_ms),
          mcp_http_over_rest_p50: round(overHttp.p50_ms / rest.p50_ms),
        },
        offline_answer: {
          conversations: conversation,
          chat_completions: completion,
          chat_completions_over_conversations_p50: round(completion.p50_ms / conversation.p50_ms),
        },
      };
    } finally {
      await stdio.close();
      await http.close();
    }
  } finally {
    await daemon.stop();
  }
}

if (import.meta.main) console.log(JSON.stringify(await run(), null, 2));
