// Ingestion throughput with the offline embedder: the files corpus, the QA documents and the website,
// each through a real daemon (HTTP upload, queue, extraction, chunking, embedding, LanceDB), plus the
// same files extracted, chunked and embedded bare in one process, to show what the pipeline adds.
import { readdir, readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { createEmbedder } from '../daemon/embed/index.ts';
import { chunkContextText, chunkDocument } from '../daemon/ingest/chunk.ts';
import { createExtractor } from '../daemon/ingest/extract/index.ts';
import { SOURCE_BATCH_MAX } from '../src/api/sources.ts';
import { createClient, type SourceInput } from '../src/client/index.ts';
import { startStaticServer } from '../test/support/static-server.ts';
import { type BenchServer, median, peakRssMib, round, startServer, waitIdle } from './support.ts';

const corpus = resolve(import.meta.dirname, '../../shared/corpus');

interface ManifestEntry {
  path: string;
  kind: string;
}

/**
 * Waits until every source of the application has ended. Sources end about in the order they were added, so it
 * polls the newest one (a small request), then the whole list (content null) until none is left running.
 */
async function waitAll(daemon: BenchServer, application: string): Promise<any[]> {
  const ended = (source: any): boolean =>
    source.embed_status === 'COMPLETED' || source.embed_status === 'FAILED';
  const [newest] = await daemon.call('GET', `/applications/${application}/sources?limit=1`);
  while (!ended(await daemon.call('GET', `/sources/${newest.id}`))) await delay(20);
  for (;;) {
    const sources: any[] = await daemon.call('GET', `/applications/${application}/sources`);
    if (sources.every(ended)) return sources;
    await delay(50);
  }
}

function delay(milliseconds: number): Promise<void> {
  return new Promise((done) => setTimeout(done, milliseconds));
}

function figures(sources: any[], seconds: number) {
  const pages = sources.reduce((sum, source) => sum + source.pages, 0);
  const characters = sources.reduce((sum, source) => sum + source.characters, 0);
  const chunks = sources.reduce((sum, source) => sum + source.chunks, 0);
  return {
    sources: sources.length,
    completed: sources.filter((source) => source.embed_status === 'COMPLETED').length,
    seconds: round(seconds),
    pages,
    chunks,
    text_mb: round(characters / 1e6, 3),
    pages_per_second: round(pages / seconds, 1),
    text_mb_per_second: round(characters / 1e6 / seconds, 2),
    chunks_per_second: round(chunks / seconds, 0),
  };
}

/**
 * What `ckb source add --file` does with many files: each uploaded through its own pre-signed URL, 32 at a
 * time, and the sources added 1,000 per request as their uploads finish.
 */
async function ingestFiles(daemon: BenchServer, name: string, paths: string[]) {
  const application = (await daemon.call('POST', '/applications', { name })).id;
  const started = performance.now();
  const client = createClient({ url: daemon.url, apiKey: daemon.apiKey });
  const queue = [...paths];
  let uploaded: SourceInput[] = [];
  const adding: Promise<unknown>[] = [];
  const addUploaded = (): void => {
    adding.push(client.sources.createMany(uploaded));
    uploaded = [];
  };
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      for (let path = queue.shift(); path; path = queue.shift()) {
        const file = await client.files.upload(path);
        uploaded.push({ application_id: application, name: file.name, type: 'file', content: file.id });
        if (uploaded.length === SOURCE_BATCH_MAX) addUploaded();
      }
    }),
  );
  if (uploaded.length > 0) addUploaded();
  await Promise.all(adding);
  const sources = await waitAll(daemon, application);
  return figures(sources, (performance.now() - started) / 1000);
}

/** A folder of documents through the bulk API: read, then posted as text sources 1,000 per request. */
async function ingestTextBatches(daemon: BenchServer, name: string, paths: string[]) {
  const application = (await daemon.call('POST', '/applications', { name })).id;
  const client = createClient({ url: daemon.url, apiKey: daemon.apiKey });
  const started = performance.now();
  for (let start = 0; start < paths.length; start += SOURCE_BATCH_MAX) {
    const bodies = await Promise.all(
      paths.slice(start, start + SOURCE_BATCH_MAX).map(async (path) => ({
        application_id: application,
        name: basename(path),
        type: 'text' as const,
        content: await readFile(path, 'utf8'),
      })),
    );
    await client.sources.createMany(bodies);
  }
  const sources = await waitAll(daemon, application);
  return figures(sources, (performance.now() - started) / 1000);
}

async function crawlSite(daemon: BenchServer) {
  const site = await startStaticServer({
    root: join(corpus, 'site/sphinx-doc'),
    robotsFile: join(corpus, 'site/sphinx-doc.robots.txt'),
    sitemapFile: join(corpus, 'site/sphinx-doc.sitemap.xml'),
  });
  try {
    const application = (await daemon.call('POST', '/applications', { name: 'site' })).id;
    const started = performance.now();
    await daemon.call('POST', '/sources', {
      application_id: application,
      name: 'sphinx',
      type: 'website',
      content: `${site.origin}/index.html`,
    });
    const sources = await waitAll(daemon, application);
    return figures(sources, (performance.now() - started) / 1000);
  } finally {
    await site.close();
  }
}

/** The same work without the daemon: extract, chunk and embed each file in turn, in this process. */
async function bareFiles(paths: string[]): Promise<number> {
  const embedder = await createEmbedder({ cacheDir: join(corpus, '..', 'none') });
  const extractor = createExtractor();
  try {
    const started = performance.now();
    for (const path of paths) {
      try {
        const document = await extractor.extractFile(path, basename(path));
        await embedder.embed(chunkDocument(document).map(chunkContextText), { kind: 'document' });
      } catch {
        // Failing files cost the daemon their failure too; they count the same here.
      }
    }
    return (performance.now() - started) / 1000;
  } finally {
    await extractor.close();
  }
}

/** Runs of one measurement, each in an application of its own; the machine is shared, so one run is noise. */
const RUNS = 3;

type Figures = ReturnType<typeof figures>;

/**
 * The median run's figures, with every run's rate in the order they ran (the first meets cold caches). Each run
 * starts on an idle daemon; how long it stayed busy after its sources ended (refreshing the indexes) is kept too.
 */
async function medianOf(
  daemon: BenchServer,
  measure: (run: number) => Promise<Figures>,
): Promise<
  Figures & { runs_seconds: number[]; runs_text_mb_per_second: number[]; runs_busy_after_seconds: number[] }
> {
  const runs: Figures[] = [];
  const busyAfter: number[] = [];
  await waitIdle(daemon.pid);
  for (let index = 0; index < RUNS; index++) {
    runs.push(await measure(index));
    busyAfter.push(await waitIdle(daemon.pid));
  }
  const middle = runs.toSorted((left, right) => left.seconds - right.seconds)[Math.floor(RUNS / 2)]!;
  return {
    ...middle,
    runs_seconds: runs.map((run) => run.seconds),
    runs_text_mb_per_second: runs.map((run) => run.text_mb_per_second),
    runs_busy_after_seconds: busyAfter,
  };
}

export async function run(): Promise<Record<string, unknown>> {
  const manifest = JSON.parse(await readFile(join(corpus, 'files/MANIFEST.json'), 'utf8')) as ManifestEntry[];
  const goodFiles = manifest
    .filter((entry) => entry.kind === 'good')
    .map((entry) => join(corpus, 'files', entry.path));
  const qaFiles: string[] = [];
  for (const set of ['squad-v1.1-dev', 'scifact']) {
    const directory = join(corpus, 'qa', set, 'docs');
    for (const file of await readdir(directory)) qaFiles.push(join(directory, file));
  }

  const daemon = await startServer('daemon');
  try {
    // Side by side: each ckb run right after a bare run, on an idle daemon, so that the machine's drifting speed
    // (the bare time moved between 1.1 and 2.3 s within one afternoon) weighs on both times of a pair alike.
    const bareRuns: number[] = [];
    const files = await medianOf(daemon, async (index) => {
      bareRuns.push(await bareFiles(goodFiles));
      return ingestFiles(daemon, `files-${index}`, goodFiles);
    });
    const pairRatios = files.runs_seconds.map((seconds, index) => round(seconds / bareRuns[index]!));
    const qa = await medianOf(daemon, (index) => ingestTextBatches(daemon, `qa-${index}`, qaFiles));
    const qaUploaded = await ingestFiles(daemon, 'qa-files', qaFiles);
    await waitIdle(daemon.pid);
    const site = await crawlSite(daemon);
    const rss = await peakRssMib(daemon.pid);
    return {
      embedder: 'offline (default)',
      files_corpus: { ...files, all_good_completed: files.completed === goodFiles.length },
      qa_markdown: {
        path: `read and posted as text sources, 1,000 per POST /sources/batch; median of ${RUNS} runs`,
        ...qa,
      },
      qa_markdown_uploaded_files: {
        path: 'each file uploaded through a pre-signed URL (32 at a time), added 1,000 per POST /sources/batch',
        ...qaUploaded,
      },
      website: site,
      peak_daemon_rss_mib: rss,
      pipeline_overhead: {
        of: `median of the ratios of ${RUNS} pairs of runs, the bare one just before the ckb one`,
        ckb_seconds: files.seconds,
        bare_seconds: round(median(bareRuns)),
        runs_bare_seconds: bareRuns.map((seconds) => round(seconds)),
        runs_ratio: pairRatios,
        ratio: median(pairRatios),
      },
      targets: {
        qa_markdown_text_mb_per_second: '>= 2',
        pipeline_overhead_ratio: '<= 1.3',
        all_good_completed: true,
      },
    };
  } finally {
    await daemon.stop();
  }
}

if (import.meta.main) console.log(JSON.stringify(await run(), null, 2));
