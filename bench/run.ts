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
  ocr: async () => (await import('./ocr.ts')).run(),
  integrations: async () => (await import('./integrations.ts')).run(),
  storage: async () => (await import('./storage.ts')).run(),
  sync: async () => (await import('./sync.ts')).run(),
  cluster: async () => (await import('./cluster.ts')).run(),
};

/** Issue 14's figures for one database (the storage benchmark measures SQLite and PostgreSQL alike). */
function storageHeadlines(database: 'sqlite' | 'postgres'): Headline[] {
  const at = (path: string) => `storage.${database}.${path}`;
  return [
    [
      `${database}: peak RSS, 20,000 sources, index build included (MiB)`,
      at('rss_mib.peak'),
      '<= 800',
      (v) => v <= 800,
    ],
    [
      `${database}: idle RSS after a restart (MiB)`,
      at('rss_mib.idle_after_restart'),
      '<= 300',
      (v) => v <= 300,
    ],
    [`${database}: RSS added by 500 turns (MiB)`, at('rss_mib.turns_added'), '<= 60', (v) => v <= 60],
    [`${database}: search p50, 20,000 / 1 source`, at('search_ms.p50_ratio'), '<= 3', (v) => v <= 3],
    [
      `${database}: search p95, 20,000 sources (ms)`,
      at('search_ms.all_sources.p95'),
      '<= 40',
      (v) => v <= 40,
    ],
    [
      `${database}: offline turn p50, 20,000 sources (ms)`,
      at('offline_turn_ms.p50'),
      '<= 30',
      (v) => v <= 30,
    ],
  ];
}

/** Headline figures: where they are in the results, and the target they answer to. */
type Headline = [label: string, path: string, target: string, pass?: (value: number) => boolean];
const HEADLINES: Headline[] = [
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
  ['fresh corpus questions: answer holds the fact', 'corpusAnswers.fresh.factHeld', '(none)'],
  ['probe corpus questions (2026-11-28): answer holds the fact', 'corpusAnswers.probes.factHeld', '(none)'],
  [
    'corpus questions but the probes: answer holds the fact',
    'corpusAnswers.otherThanProbes.factHeld',
    '(none)',
  ],
  ['corpus overview requests: answer holds the fact', 'corpusAnswers.overviews.factHeld', '(none)'],
  ['corpus "what/who is" questions: answer holds the fact', 'corpusAnswers.definitions.factHeld', '(none)'],
  ['scanned pages/s, 2 cores (200 dpi)', 'ocr.scanned.pages_per_second_2_cores', '(none)'],
  ['scanned page, slowest alone (s)', 'ocr.scanned.seconds_per_page_alone.max', '<= 5', (v) => v <= 5],
  ['scan word recall, mean (200 dpi)', 'ocr.scanned.word_recall.mean', '>= 0.95', (v) => v >= 0.95],
  ['scan word recall, worst page', 'ocr.scanned.word_recall.min', '>= 0.95', (v) => v >= 0.95],
  ['text-layer pages/s, same pages', 'ocr.text_layer.pages_per_second_2_cores', '(none)'],
  [
    'PDFs without scans, recognition on / off',
    'ocr.pdfs_without_scans.ratio_on_over_off',
    '<= 1.05',
    (v) => v <= 1.05,
  ],
  ['`ckb mcp` start to first answer p50 (ms)', 'integrations.mcp_stdio_start_ms.p50', '(none)'],
  ['MCP search over stdio / REST search (p50)', 'integrations.search.mcp_stdio_over_rest_p50', '(none)'],
  [
    '/v1 answer / conversation turn (p50)',
    'integrations.offline_answer.chat_completions_over_conversations_p50',
    '(none)',
  ],
  ...storageHeadlines('sqlite'),
  ['sqlite: fsyncs for 50 acknowledged creates', 'storage.sqlite.durability.syncs', '>= 50', (v) => v >= 50],
  ...storageHeadlines('postgres'),
  [
    `before the SQL store: peak RSS, 20,000 sources, index build included (MiB)`,
    'storage.baseline.rss_mib.peak',
    '(none)',
  ],
  ['before the SQL store: search p50, 20,000 / 1 source', 'storage.baseline.search_ms.p50_ratio', '(none)'],
  [
    'website re-sync, 1 page changed: pages embedded',
    'sync.website.resync_one_page_changed.pages_embedded',
    '1',
    (v) => v === 1,
  ],
  ['website re-sync / first crawl (time)', 'sync.website.resync_over_first_crawl', '<= 0.2', (v) => v <= 0.2],
  [
    '`ckb sync`, 2,611 unchanged files: chunks embedded',
    'sync.qa_folder.unchanged_sync.chunks_embedded',
    '0',
    (v) => v === 0,
  ],
  ['`ckb sync`, 2,611 unchanged files (s)', 'sync.qa_folder.unchanged_sync.seconds', '(none)'],
  ['QA ingestion, 1 worker (MB/s)', 'cluster.ingestion.one_worker.text_mb_per_second', '(none)'],
  ['QA ingestion, 2 workers / 1 worker', 'cluster.ingestion.two_over_one_worker', '(< 2 on 2 cores)'],
  [
    'GET /applications/{id}, nginx, 1 replica (req/s)',
    'cluster.api.get_application.nginx, one replica.requests_per_second',
    '(none)',
  ],
  [
    'GET /applications/{id}, 2 replicas / 1',
    'cluster.api.get_application.two_over_one_replica',
    '(< 2 on 2 cores)',
  ],
  ['search, 2 replicas / 1', 'cluster.api.search.two_over_one_replica', '(< 2 on 2 cores)'],
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
