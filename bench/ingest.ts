// Ingestion throughput with the offline embedder: the files corpus, the QA documents and the website,
// each through a real daemon (HTTP upload, queue, extraction, chunking, embedding, LanceDB), plus the
// same files extracted, chunked and embedded bare in one process, to show what the pipeline adds.
import { readdir, readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { chunkContextText, chunkDocument } from '../daemon/ingest/chunk.ts';
import { createEmbedder } from '../daemon/ingest/embed/index.ts';
import { extractFile } from '../daemon/ingest/extract/index.ts';
import { type CkbClient, createClient } from '../src/client/index.ts';
import { startStaticServer } from '../test/support/static-server.ts';
import { type BenchServer, peakRssMib, round, startServer } from './support.ts';

const corpus = resolve(import.meta.dirname, '../../shared/corpus');

interface ManifestEntry {
  path: string;
  kind: string;
}

/** What `ckb source add --file` does: pre-sign, stream the file up, add the source; with the client library. */
async function uploadAndAdd(client: CkbClient, application: string, path: string): Promise<string> {
  const file = await client.files.upload(path);
  const source = await client.sources.create({
    application_id: application,
    name: file.name,
    type: 'file',
    content: file.id,
  });
  return source.id;
}

/**
 * Waits for every source to end, asking about one unfinished source at a time (they finish roughly in order),
 * then lists them once: polling the whole list of thousands would cost the daemon more than the work measured.
 */
async function waitAll(daemon: BenchServer, application: string, ids: string[]): Promise<any[]> {
  for (const id of ids) {
    for (;;) {
      const source = await daemon.call('GET', `/sources/${id}`);
      if (source.embed_status === 'COMPLETED' || source.embed_status === 'FAILED') break;
      await new Promise((done) => setTimeout(done, 20));
    }
  }
  return daemon.call('GET', `/applications/${application}/sources`);
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

/** The same documents posted as text sources: what the pipeline itself sustains without an upload per file. */
async function addAsText(client: CkbClient, application: string, path: string): Promise<string> {
  const text = await readFile(path, 'utf8');
  const source = await client.sources.create({
    application_id: application,
    name: basename(path),
    type: 'text',
    content: text,
  });
  return source.id;
}

type AddSource = (client: CkbClient, application: string, path: string) => Promise<string>;

async function ingestFiles(
  daemon: BenchServer,
  name: string,
  paths: string[],
  add: AddSource = uploadAndAdd,
  concurrency = 32,
) {
  const application = (await daemon.call('POST', '/applications', { name })).id;
  const started = performance.now();
  const queue = [...paths];
  const client = createClient({ url: daemon.url, apiKey: daemon.apiKey });
  const ids: string[] = [];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let path = queue.shift(); path; path = queue.shift())
        ids.push(await add(client, application, path));
    }),
  );
  const sources = await waitAll(daemon, application, ids);
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
    const source = await daemon.call('POST', '/sources', {
      application_id: application,
      name: 'sphinx',
      type: 'website',
      content: `${site.origin}/index.html`,
    });
    const sources = await waitAll(daemon, application, [source.id]);
    return figures(sources, (performance.now() - started) / 1000);
  } finally {
    await site.close();
  }
}

/** The same work without the daemon: extract, chunk and embed each file in turn, in this process. */
async function bareFiles(paths: string[]): Promise<number> {
  const embedder = await createEmbedder({ cacheDir: join(corpus, '..', 'none') });
  const started = performance.now();
  for (const path of paths) {
    try {
      const document = await extractFile(path, basename(path));
      await embedder.embed(chunkDocument(document).map(chunkContextText), { kind: 'document' });
    } catch {
      // Failing files cost the daemon their failure too; they count the same here.
    }
  }
  return (performance.now() - started) / 1000;
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
    const files = await ingestFiles(daemon, 'files', goodFiles);
    const qa = await ingestFiles(daemon, 'qa', qaFiles);
    const qaText = await ingestFiles(daemon, 'qa-text', qaFiles, addAsText);
    const site = await crawlSite(daemon);
    const rss = await peakRssMib(daemon.pid);
    const bare = await bareFiles(goodFiles);
    return {
      embedder: 'offline (default)',
      files_corpus: { ...files, all_good_completed: files.completed === goodFiles.length },
      qa_markdown: qa,
      qa_markdown_as_text_sources: qaText,
      website: site,
      peak_daemon_rss_mib: rss,
      pipeline_overhead: {
        ckb_seconds: files.seconds,
        bare_seconds: round(bare),
        ratio: round(files.seconds / bare),
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
