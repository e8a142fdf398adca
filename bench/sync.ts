// Keeping sources current: the shared 132-page website re-synced after one page changed (how much is read and
// embedded again, against the first crawl), re-synced unchanged, and `ckb sync` of the unchanged 2,611-file QA
// folder. Every figure comes from a real daemon (bench/servers/daemon.ts), the real CLI, and the daemon's own log
// of what each sync embedded.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { startStaticServer } from '../test/support/static-server.ts';
import { type BenchServer, round, startServer, waitIdle } from './support.ts';

const corpus = resolve(import.meta.dirname, '../../shared/corpus');
const cli = resolve(import.meta.dirname, '../dist/src/cli/main.js');
const QA_FOLDERS = ['squad-v1.1-dev', 'scifact'].map((set) => join(corpus, 'qa', set, 'docs'));

/** The page edited between the first crawl and the re-sync, and the edit: one sentence of one paragraph. */
const EDITED_PAGE = '/faq.html';
const EDIT = ['provides a PDF builder', 'provides a PDF builder, edited for the benchmark,'] as const;

function delay(milliseconds: number): Promise<void> {
  return new Promise((done) => setTimeout(done, milliseconds));
}

async function waitDone(daemon: BenchServer, id: string): Promise<any> {
  for (;;) {
    const source = await daemon.call('GET', `/sources/${id}`);
    if (source.embed_status === 'COMPLETED' || source.embed_status === 'FAILED') return source;
    await delay(20);
  }
}

/**
 * The daemon's `source refreshed` lines (about one source, or all): what each sync read, embedded and kept. The
 * log is written every 200 ms: it waits for `expected` lines, a few seconds at most.
 */
async function refreshLines(daemon: BenchServer, sourceId: string, expected = 0): Promise<any[]> {
  for (let attempt = 0; ; attempt++) {
    const lines = (await readFile(join(daemon.home, 'logs', 'daemon.log'), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .filter(
        (line) => line.message === 'source refreshed' && (sourceId === '' || line.source_id === sourceId),
      );
    if (lines.length >= expected || attempt === 50) return lines;
    await delay(100);
  }
}

async function timed<T>(work: () => Promise<T>): Promise<{ seconds: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { seconds: round((performance.now() - started) / 1000), value };
}

async function website(daemon: BenchServer) {
  const edits = new Map<string, string>();
  const site = await startStaticServer({
    root: join(corpus, 'site/sphinx-doc'),
    robotsFile: join(corpus, 'site/sphinx-doc.robots.txt'),
    sitemapFile: join(corpus, 'site/sphinx-doc.sitemap.xml'),
    edits,
  });
  try {
    const application = (await daemon.call('POST', '/applications', { name: 'site sync' })).id;
    const first = await timed(async () => {
      const { id } = await daemon.call('POST', '/sources', {
        application_id: application,
        name: 'sphinx',
        type: 'website',
        content: `${site.origin}/index.html`,
      });
      return waitDone(daemon, id);
    });
    await waitIdle(daemon.pid);
    const id = first.value.id;
    const sync = async () => {
      await daemon.call('POST', `/sources/${id}/sync`);
      return waitDone(daemon, id);
    };
    const unchanged = await timed(sync);
    await waitIdle(daemon.pid);
    const page = await readFile(join(corpus, 'site/sphinx-doc', EDITED_PAGE), 'utf8');
    if (!page.includes(EDIT[0])) throw new Error(`${EDITED_PAGE} no longer holds "${EDIT[0]}"`);
    edits.set(EDITED_PAGE, page.replace(EDIT[0], EDIT[1]));
    const changed = await timed(sync);
    const [unchangedLog, changedLog] = await refreshLines(daemon, id, 2);
    const hits = await daemon.call('POST', `/applications/${application}/search`, {
      query: 'PDF builder edited for the benchmark',
      limit: 1,
    });
    return {
      pages: first.value.pages,
      chunks: first.value.chunks,
      first_crawl: { seconds: first.seconds, chunks_embedded: first.value.chunks },
      resync_unchanged: {
        seconds: unchanged.seconds,
        pages_not_modified: unchangedLog?.pages_not_modified,
        chunks_embedded: unchangedLog?.chunks_embedded,
        kept_live_chunks: unchangedLog?.unchanged,
      },
      resync_one_page_changed: {
        changed_page: EDITED_PAGE,
        seconds: changed.seconds,
        pages_not_modified: changedLog?.pages_not_modified,
        pages_embedded: changedLog?.pages_embedded,
        chunks_embedded: changedLog?.chunks_embedded,
        chunks_reused: changedLog?.chunks_reused,
        edit_found_by_search: hits[0]?.url?.endsWith(EDITED_PAGE) === true,
      },
      resync_over_first_crawl: round(changed.seconds / first.seconds, 3),
    };
  } finally {
    await site.close();
  }
}

/** Runs the built CLI against the benchmark's daemon, as a user of that home would. */
function ckb(
  daemon: BenchServer,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [cli, ...args], {
      env: {
        ...process.env,
        CKB_HOME: daemon.home,
        CKB_URL: daemon.url,
        CKB_NO_AUTOSTART: '1',
        NO_COLOR: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

async function folder(daemon: BenchServer) {
  const application = (await daemon.call('POST', '/applications', { name: 'qa sync' })).id;
  const first = await timed(() => ckb(daemon, ['sync', '--app', application, ...QA_FOLDERS, '--wait']));
  if (first.value.code !== 0) throw new Error(`ckb sync failed: ${first.value.stderr}`);
  await waitIdle(daemon.pid);
  const files = (await daemon.call('GET', '/files')).length;
  const before = await daemon.call('GET', `/applications/${application}/sources`);
  const refreshedBefore = (await refreshLines(daemon, '')).length;
  const again = await timed(() => ckb(daemon, ['sync', '--app', application, ...QA_FOLDERS, '--wait']));
  if (again.value.code !== 0) throw new Error(`ckb sync failed: ${again.value.stderr}`);
  const after = await daemon.call('GET', `/applications/${application}/sources`);
  const updatedAt = new Map(before.map((source: any) => [source.id, source.updated_at]));
  const refreshed = (await refreshLines(daemon, '')).slice(refreshedBefore);
  return {
    files: before.length,
    first_sync: { seconds: first.seconds, summary: first.value.stdout.trim().split('\n').at(-1) },
    unchanged_sync: {
      seconds: again.seconds,
      summary: again.value.stdout.trim(),
      uploads: (await daemon.call('GET', '/files')).length - files,
      sources_touched: after.filter((source: any) => updatedAt.get(source.id) !== source.updated_at).length,
      chunks_embedded: refreshed.reduce((sum, line) => sum + line.chunks_embedded, 0),
    },
  };
}

export async function run(): Promise<Record<string, unknown>> {
  const daemon = await startServer('daemon');
  try {
    await waitIdle(daemon.pid);
    const site = await website(daemon);
    await waitIdle(daemon.pid);
    const qa = await folder(daemon);
    return {
      embedder: 'offline (default)',
      website: site,
      qa_folder: qa,
      targets: {
        website_resync_pages_embedded: 1,
        website_resync_over_first_crawl: 'a small fraction',
        qa_unchanged_sync_chunks_embedded: 0,
      },
    };
  } finally {
    await daemon.stop();
  }
}

if (import.meta.main) console.log(JSON.stringify(await run(), null, 2));
