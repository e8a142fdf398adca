// `npm run bench`: every benchmark in one run, figures to bench/results/latest.json and a table of the
// headline figures against the issues' targets. Peers run beside ckb inside each benchmark.
import { readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';

type Figures = Record<string, unknown>;

const BENCHMARKS: Record<string, () => Promise<object>> = {
  cli: async () => (await import('./cli.ts')).run(),
  api: async () => (await import('./api.ts')).run(),
  ingest: async () => (await import('./ingest.ts')).run(),
  retrieval: async () => (await import('./retrieval.ts')).run({ latency: true }),
  responder: async () => (await import('./responder.ts')).run(),
  corpusAnswers: async () => (await import('./corpus-answers.ts')).run(),
  conversations: async () => (await import('./conversations.ts')).run(),
};

/** Headline figures: where they are in the results, and the target they answer to. */
const HEADLINES: [label: string, path: string, target: string, pass?: (value: number) => boolean][] = [
  ['ckb --help / bare node', 'cli.help_over_bare', '<= 1.5', (v) => v <= 1.5],
  ['API throughput / Koa hello-world', 'api.throughput_ratio', '>= 0.5', (v) => v >= 0.5],
  ['API p99 (ms)', 'api.ckb_get_application.p99_ms', '< 20', (v) => v < 20],
  ['QA Markdown ingestion, bulk API (MB/s)', 'ingest.qa_markdown.text_mb_per_second', '>= 2', (v) => v >= 2],
  [
    'QA Markdown ingestion, file uploads (MB/s)',
    'ingest.qa_markdown_uploaded_files.text_mb_per_second',
    '(none)',
  ],
  ['pipeline overhead (ckb / bare)', 'ingest.pipeline_overhead.ratio', '<= 1.3', (v) => v <= 1.3],
  ['good corpus files completed', 'ingest.files_corpus.completed', 'all 20', (v) => v === 20],
  ['retrieval chunk target size (tokens)', 'headline.chunk_tokens', '(none)'],
  ['SQuAD hit@1, ckb hybrid', 'retrieval.quality.squad.ckb.hybrid.hit@1', '>= 0.88', (v) => v >= 0.88],
  ['SQuAD hit@5, ckb hybrid', 'retrieval.quality.squad.ckb.hybrid.hit@5', '>= 0.97', (v) => v >= 0.97],
  [
    'SQuAD hit@1, held-out articles',
    'retrieval.quality.squad.ckb.hybridHeldOut.hit@1',
    '>= 0.88',
    (v) => v >= 0.88,
  ],
  [
    'SQuAD hit@1, plain BM25 over paragraphs',
    'retrieval.quality.squad.peers.plainBm25.scores.hit@1',
    '(none)',
  ],
  [
    'SQuAD hit@5, plain BM25 over paragraphs',
    'retrieval.quality.squad.peers.plainBm25.scores.hit@5',
    '(none)',
  ],
  ['SQuAD hybrid − best peer hit@5 (points)', 'headline.squad_margin_points', '>= 3', (v) => v >= 3],
  [
    'SciFact nDCG@10 (dev claims), ckb hybrid',
    'retrieval.quality.scifact.ckb.hybrid.ndcg@10',
    '>= 0.77',
    (v) => v >= 0.77,
  ],
  ['SciFact nDCG@10, plain BM25', 'retrieval.quality.scifact.peers.plainBm25.scores.ndcg@10', '(none)'],
  ['search p95 at 100k chunks (ms)', 'headline.search_p95_ms_100k', '<= 50', (v) => v <= 50],
  ['offline conversation turn p50 (ms)', 'conversations.offline_turn.p50_ms', '<= 100', (v) => v <= 100],
  [
    'offline replies with a gold answer, held-out',
    'responder.heldOut.goldAnswerContained',
    '>= 0.85',
    (v) => v >= 0.85,
  ],
  ['offline reply median words, held-out', 'responder.heldOut.medianReplyWords', '<= 50', (v) => v <= 50],
  ['offline replies whose [n] all name a source', 'responder.citationsValid', '1', (v) => v === 1],
  ['corpus questions: answer holds the fact', 'corpusAnswers.factHeld', '>= 0.90', (v) => v >= 0.9],
  ['corpus questions: first source right', 'corpusAnswers.firstSourceRight', '>= 0.95', (v) => v >= 0.95],
  ['corpus questions: every [n] names a source', 'corpusAnswers.citationsValid', '1', (v) => v === 1],
];

/** The retrieval figures the issues name, derived from the retrieval benchmark's detailed output. */
function retrievalHeadline(retrieval: Figures | undefined): Figures {
  const hit5 = (path: string) => at(retrieval ?? {}, `quality.squad.${path}.hit@5`) as number | undefined;
  const hybrid = hit5('ckb.hybrid');
  const peers = [
    hit5('peers.plainBm25.scores'),
    hit5('peers.miniSearch.scores'),
    hit5('peers.langChain.scores'),
  ].filter((v) => v !== undefined);
  const latency = (at(retrieval ?? {}, 'latency') ?? []) as { chunks: number; searchMilliseconds: Figures }[];
  const at100k = latency.find((size) => size.chunks === 100_000);
  return {
    chunk_tokens: at(retrieval ?? {}, 'quality.squad.ckb.chunking.targetTokens') as number | undefined,
    squad_hybrid_hit5: hybrid,
    squad_margin_points:
      hybrid !== undefined && peers.length > 0
        ? Math.round((hybrid - Math.max(...peers)) * 1000) / 10
        : undefined,
    search_p95_ms_100k: at100k ? at(at100k.searchMilliseconds, 'hybrid.p95') : undefined,
  };
}

function at(results: Figures, path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => (value as Figures | undefined)?.[key], results);
}

const only = process.argv.slice(2);
const latestPath = resolve(import.meta.dirname, 'results/latest.json');
// Naming benchmarks re-runs only those, keeping the other figures of the last full run.
const previous: Figures =
  only.length > 0 ? JSON.parse(await readFile(latestPath, 'utf8').catch(() => '{}')) : {};
const results: Figures = {
  ...previous,
  measured_at: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  load_average_1m: Math.round(loadavg()[0]! * 10) / 10,
};
for (const [name, benchmark] of Object.entries(BENCHMARKS)) {
  if (only.length > 0 && !only.includes(name)) continue;
  process.stderr.write(`bench: ${name}…\n`);
  const started = performance.now();
  try {
    results[name] = await benchmark();
  } catch (error) {
    results[name] = { error: String(error) };
  }
  process.stderr.write(`bench: ${name} done in ${Math.round((performance.now() - started) / 1000)} s\n`);
}
results['headline'] = retrievalHeadline(results['retrieval'] as Figures | undefined);
await writeFile(latestPath, `${JSON.stringify(results, null, 2)}\n`);

const rows = HEADLINES.map(([label, path, target, pass]) => {
  const value = at(results, path);
  const verdict =
    typeof value !== 'number' ? 'not measured' : pass === undefined ? '' : pass(value) ? 'met' : 'MISSED';
  return [label, value === undefined ? '–' : String(value), target, verdict];
});
const widths = [0, 1, 2, 3].map((column) => Math.max(...rows.map((row) => row[column]!.length), 6));
for (const row of [['figure', 'value', 'target', ''], ...rows]) {
  console.log(row.map((cell, column) => cell.padEnd(widths[column]!)).join('  '));
}
