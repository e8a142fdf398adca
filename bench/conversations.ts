// Conversation latency: one offline turn, time to the first streamed chunk through an OpenAI-compatible
// provider (the test suite's fake vendor on loopback), and turns per second with 20 concurrent clients.
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startFakeOpenAI } from '../test/support/fake-openai.ts';
import { type BenchServer, median, percentile, round, startServer } from './support.ts';

const squad = resolve(import.meta.dirname, '../../shared/corpus/qa/squad-v1.1-dev');
const TURNS = 60;
const CONCURRENT_CLIENTS = 20;
const LOAD_SECONDS = 10;

async function loadQuestions(): Promise<string[]> {
  const lines = (await readFile(join(squad, 'questions.jsonl'), 'utf8')).trim().split('\n');
  return lines
    .filter((_, index) => index % 37 === 0)
    .map((line) => (JSON.parse(line) as { question: string }).question);
}

async function ingest(daemon: BenchServer, application: string): Promise<void> {
  for (const doc of await readdir(join(squad, 'docs'))) {
    const content = await readFile(join(squad, 'docs', doc), 'utf8');
    await daemon.call('POST', '/sources', { application_id: application, name: doc, type: 'text', content });
  }
  for (;;) {
    const sources = await daemon.call('GET', `/applications/${application}/sources`);
    if (sources.every((source: { embed_status: string }) => source.embed_status === 'COMPLETED')) return;
    await new Promise((done) => setTimeout(done, 200));
  }
}

async function timeTurn(daemon: BenchServer, body: object): Promise<number> {
  const started = performance.now();
  await daemon.call('POST', '/conversations', body);
  return performance.now() - started;
}

/** Milliseconds from sending a streamed turn to its first `chunk` event. */
async function firstChunk(daemon: BenchServer, body: object): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${daemon.url}/conversations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${daemon.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ...body, stream: true }),
  });
  const decoder = new TextDecoder();
  let text = '';
  let elapsed = Number.NaN;
  for await (const bytes of response.body as AsyncIterable<Uint8Array>) {
    text += decoder.decode(bytes, { stream: true });
    if (Number.isNaN(elapsed) && text.includes('event: chunk')) elapsed = performance.now() - started;
  }
  return elapsed;
}

async function turnsPerSecond(daemon: BenchServer, application: string, questions: string[]) {
  const deadline = performance.now() + LOAD_SECONDS * 1000;
  const latencies: number[] = [];
  let errors = 0;
  await Promise.all(
    Array.from({ length: CONCURRENT_CLIENTS }, async (_, client) => {
      for (let turn = client; performance.now() < deadline; turn += CONCURRENT_CLIENTS) {
        try {
          latencies.push(
            await timeTurn(daemon, {
              application_id: application,
              message: questions[turn % questions.length],
            }),
          );
        } catch {
          errors += 1;
        }
      }
    }),
  );
  return {
    clients: CONCURRENT_CLIENTS,
    seconds: LOAD_SECONDS,
    turns_per_second: round(latencies.length / LOAD_SECONDS, 1),
    p50_ms: round(median(latencies), 1),
    p95_ms: round(percentile(latencies, 95), 1),
    errors,
  };
}

export async function run(): Promise<Record<string, unknown>> {
  const vendor = await startFakeOpenAI({ reply: () => 'The answer is in the first passage [1].' });
  const home = await mkdtemp(join(tmpdir(), 'ckb-bench-conv-'));
  await writeFile(
    join(home, 'config.json'),
    JSON.stringify({
      models: { 'lm-4': { base_url: vendor.baseUrl, model: 'fake', api_key_env: 'CKB_BENCH_FAKE_KEY' } },
    }),
  );
  process.env['CKB_BENCH_FAKE_KEY'] = 'sk-bench';
  const daemon = await startServer('daemon', home);
  try {
    const questions = await loadQuestions();
    const offline = (await daemon.call('POST', '/applications', { name: 'offline' })).id;
    const provider = (await daemon.call('POST', '/applications', { name: 'provider', model: 'lm-4' })).id;
    await ingest(daemon, offline);
    await ingest(daemon, provider);

    const offlineTurns: number[] = [];
    for (const question of questions.slice(0, TURNS))
      offlineTurns.push(await timeTurn(daemon, { application_id: offline, message: question }));
    const firstChunks: number[] = [];
    for (const question of questions.slice(0, 30))
      firstChunks.push(await firstChunk(daemon, { application_id: provider, message: question }));

    return {
      documents: (await readdir(join(squad, 'docs'))).length,
      offline_turn: {
        turns: offlineTurns.length,
        p50_ms: round(median(offlineTurns), 1),
        p95_ms: round(percentile(offlineTurns, 95), 1),
      },
      provider_first_chunk: {
        turns: firstChunks.length,
        p50_ms: round(median(firstChunks), 1),
        p95_ms: round(percentile(firstChunks, 95), 1),
      },
      concurrent_offline_turns: await turnsPerSecond(daemon, offline, questions),
      targets: { offline_turn_p50_ms: '<= 100' },
    };
  } finally {
    await daemon.stop();
    await vendor.close();
  }
}

if (import.meta.main) console.log(JSON.stringify(await run(), null, 2));
