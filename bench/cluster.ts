// Many processes on one PostgreSQL and one LanceDB directory, side by side in one run: ingestion with one and
// two workers (`ckb worker`) behind one API replica, and API throughput through nginx in front of one and two
// replicas (`ckb serve --no-ingest`), with the CPU each part used, to show what holds the second one back.
import { readdir, readFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { basename, join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { SOURCE_BATCH_MAX } from '../src/api/sources.ts';
import {
  adminKeyOf,
  type CkbProcess,
  call,
  type SharedStorage,
  sharedStorage,
  startCkbProcess,
  stopAll,
} from '../test/support/cluster.ts';
import {
  findNginx,
  freePort,
  type RunningNginx,
  readmeNginxConfig,
  startNginx,
} from '../test/support/nginx.ts';
import { createDatabase, dropDatabase, startPostgresCluster } from '../test/support/postgres.ts';
import { cpuSeconds, median, peakRssMib, round } from './support.ts';

const corpus = resolve(import.meta.dirname, '../../shared/corpus');
/** The built CLI, as `bin/ckb` runs it (`npm run bench` builds first). */
const entry = resolve(import.meta.dirname, '../dist/src/cli/main.js');
const ROUNDS = 3;
const CONNECTIONS = 32;
const LOAD_SECONDS = 5;

/** Every process whose parent is `pid` (Linux /proc). */
async function childrenOf(pid: number): Promise<number[]> {
  const children: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (parent === pid) children.push(Number(name));
  }
  return children;
}

/** The PostgreSQL server listening on `port`: its postmaster and every backend and helper it started. */
async function postgresProcesses(port: number): Promise<number[]> {
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const argv = (await readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '')).split('\0');
    const portAt = argv.indexOf('-p');
    if (argv[0]?.endsWith('/postgres') && portAt !== -1 && argv[portAt + 1] === String(port))
      return [Number(name), ...(await childrenOf(Number(name)))];
  }
  return [];
}

/** CPU seconds of each group of processes while `work` runs (processes that end meanwhile count to their end). */
async function cpuDuring<T>(
  groups: Record<string, () => Promise<number[]>>,
  work: () => Promise<T>,
): Promise<{ result: T; seconds: number; cpu: Record<string, number> }> {
  const sum = async (pids: number[]) =>
    (await Promise.all(pids.map((pid) => cpuSeconds(pid).catch(() => 0)))).reduce((a, b) => a + b, 0);
  const before: Record<string, number> = {};
  const pids: Record<string, number[]> = {};
  for (const [name, find] of Object.entries(groups)) {
    pids[name] = await find();
    before[name] = await sum(pids[name]!);
  }
  const ownBefore = process.cpuUsage();
  const started = performance.now();
  const result = await work();
  const seconds = (performance.now() - started) / 1000;
  const own = process.cpuUsage(ownBefore);
  const cpu: Record<string, number> = {};
  for (const name of Object.keys(groups)) {
    // Backends that started during the run are counted too.
    const now = [...new Set([...pids[name]!, ...(await groups[name]!())])];
    cpu[name] = round((await sum(now)) - before[name]!, 1);
  }
  cpu['benchmark client'] = round((own.user + own.system) / 1e6, 1);
  return { result, seconds, cpu };
}

async function qaDocuments(): Promise<{ name: string; content: string }[]> {
  const documents: { name: string; content: string }[] = [];
  for (const set of ['squad-v1.1-dev', 'scifact']) {
    const directory = join(corpus, 'qa', set, 'docs');
    for (const file of await readdir(directory))
      documents.push({ name: basename(file), content: await readFile(join(directory, file), 'utf8') });
  }
  return documents;
}

async function waitQueueEmpty(url: string): Promise<void> {
  for (;;) {
    const health = await fetch(`${url}/health`).then((response) => response.json() as Promise<any>);
    if (health.queue.waiting + health.queue.leased === 0) return;
    await new Promise((done) => setTimeout(done, 50));
  }
}

/** One API replica and `workers` workers on a new database: posts the QA documents and times them to the end. */
async function ingestOnce(
  adminUrl: string,
  postgresPort: number,
  workers: number,
  documents: { name: string; content: string }[],
) {
  const databaseUrl = await createDatabase(adminUrl);
  const shared: SharedStorage = await sharedStorage(databaseUrl);
  const processes: CkbProcess[] = [];
  try {
    const api = await startCkbProcess('api', shared, { entry });
    processes.push(api);
    processes.push(
      ...(await Promise.all(
        Array.from({ length: workers }, () => startCkbProcess('worker', shared, { entry })),
      )),
    );
    const key = await adminKeyOf(api);
    const app = (await call(api.url, key, 'POST', '/applications', { name: 'bench' })).body.id;
    const measured = await cpuDuring(
      {
        'API replica': async () => [api.pid],
        workers: async () => processes.filter((item) => item.kind === 'worker').map((item) => item.pid),
        PostgreSQL: () => postgresProcesses(postgresPort),
      },
      async () => {
        for (let start = 0; start < documents.length; start += SOURCE_BATCH_MAX) {
          const sources = documents
            .slice(start, start + SOURCE_BATCH_MAX)
            .map((document) => ({ application_id: app, type: 'text', ...document }));
          const response = await call(api.url, key, 'POST', '/sources/batch', { sources });
          if (response.status !== 201) throw new Error(`batch refused: ${JSON.stringify(response.body)}`);
        }
        await waitQueueEmpty(api.url);
      },
    );
    const rss = {
      'API replica': await peakRssMib(api.pid),
      workers: await Promise.all(
        processes.filter((item) => item.kind === 'worker').map((item) => peakRssMib(item.pid)),
      ),
    };
    const sources = (await call(api.url, key, 'GET', `/applications/${app}/sources`)).body as any[];
    const characters = sources.reduce((sum, source) => sum + source.characters, 0);
    const completed = sources.filter((source) => source.embed_status === 'COMPLETED').length;
    return {
      seconds: round(measured.seconds),
      completed,
      text_mb_per_second: round(characters / 1e6 / measured.seconds),
      cpu_seconds: measured.cpu,
      peak_rss_mib: rss,
    };
  } finally {
    await stopAll(processes, shared);
    await dropDatabase(adminUrl, databaseUrl);
  }
}

async function load(
  url: string,
  request: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: LOAD_SECONDS, ...request });
  return {
    requests_per_second: round(result.requests.average, 0),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

/** API throughput: nginx in front of one replica (listed twice) and of two, and one replica without nginx. */
async function apiThroughput(
  adminUrl: string,
  postgresPort: number,
  documents: { name: string; content: string }[],
) {
  const nginx = findNginx();
  const databaseUrl = await createDatabase(adminUrl);
  const shared = await sharedStorage(databaseUrl);
  const processes: CkbProcess[] = [];
  const fronts: RunningNginx[] = [];
  try {
    const [portOne, portTwo] = [await freePort(), await freePort()];
    const one = await startCkbProcess('api', shared, { entry, port: portOne });
    processes.push(one);
    const two = await startCkbProcess('api', shared, { entry, port: portTwo });
    processes.push(two);
    const worker = await startCkbProcess('worker', shared, { entry });
    processes.push(worker);
    const key = await adminKeyOf(one);
    const app = (await call(one.url, key, 'POST', '/applications', { name: 'bench' })).body.id;
    // Something to search: a thousand of the QA documents.
    await call(one.url, key, 'POST', '/sources/batch', {
      sources: documents
        .slice(0, 1000)
        .map((document) => ({ application_id: app, type: 'text', ...document })),
    });
    await waitQueueEmpty(one.url);
    await worker.kill('SIGTERM');
    const targets: Record<string, string> = { 'one replica, no nginx': one.url };
    if (nginx) {
      for (const [label, replicas] of [
        ['nginx, one replica', [`127.0.0.1:${portOne}`, `127.0.0.1:${portOne}`]],
        ['nginx, two replicas', [`127.0.0.1:${portOne}`, `127.0.0.1:${portTwo}`]],
      ] as const) {
        const port = await freePort();
        const front = await startNginx(nginx, await readmeNginxConfig([...replicas], port), port);
        fronts.push(front);
        targets[label] = front.url;
      }
    }
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const requests = {
      get_application: { path: `/applications/${app}`, method: 'GET' as const, headers },
      search: {
        path: `/applications/${app}/search`,
        method: 'POST' as const,
        headers,
        body: JSON.stringify({ query: 'When was the university founded?', limit: 5 }),
      },
    };
    const nginxProcesses = async () =>
      (
        await Promise.all(
          fronts.map(async (front) => [front.child.pid!, ...(await childrenOf(front.child.pid!))]),
        )
      ).flat();
    const results: Record<string, Record<string, any[]>> = {};
    for (const [name, request] of Object.entries(requests)) {
      results[name] = {};
      for (const label of Object.keys(targets)) await load(`${targets[label]}${request.path}`, request); // warm-up
      for (let roundIndex = 0; roundIndex < ROUNDS; roundIndex++) {
        for (const [label, url] of Object.entries(targets)) {
          const measured = await cpuDuring(
            {
              'replica 1': async () => [one.pid],
              'replica 2': async () => [two.pid],
              nginx: nginxProcesses,
              PostgreSQL: () => postgresProcesses(postgresPort),
            },
            () => load(`${url}${request.path}`, request),
          );
          const runs = results[name]![label] ?? [];
          runs.push({ ...measured.result, cpu_seconds: measured.cpu });
          results[name]![label] = runs;
        }
      }
    }
    const summary: Record<string, unknown> = {};
    for (const [name, byTarget] of Object.entries(results)) {
      const figures: Record<string, unknown> = {};
      for (const [label, runs] of Object.entries(byTarget)) {
        const middle = runs.toSorted((a, b) => a.requests_per_second - b.requests_per_second)[
          Math.floor(runs.length / 2)
        ];
        figures[label] = {
          requests_per_second: median(runs.map((run) => run.requests_per_second)),
          p50_ms: median(runs.map((run) => run.p50_ms)),
          p99_ms: median(runs.map((run) => run.p99_ms)),
          errors: runs.reduce((sum, run) => sum + run.errors, 0),
          runs_requests_per_second: runs.map((run) => run.requests_per_second),
          cpu_seconds_of_the_median_run: middle.cpu_seconds,
        };
      }
      const rate = (label: string) =>
        (figures[label] as { requests_per_second: number } | undefined)?.requests_per_second;
      const one = rate('nginx, one replica');
      const two = rate('nginx, two replicas');
      figures['two_over_one_replica'] = one && two ? round(two / one) : undefined;
      summary[name] = figures;
    }
    return {
      front: nginx ? "Debian's nginx with the README configuration" : 'none: nginx is absent',
      ...summary,
    };
  } finally {
    for (const front of fronts) await front.stop();
    await stopAll(processes, shared);
    await dropDatabase(adminUrl, databaseUrl);
  }
}

export async function run(): Promise<Record<string, unknown>> {
  const documents = await qaDocuments();
  const postgres = await startPostgresCluster();
  const postgresPort = Number(new URL(postgres.adminUrl).port);
  try {
    const runs: Record<string, Awaited<ReturnType<typeof ingestOnce>>[]> = {
      one_worker: [],
      two_workers: [],
    };
    // Alternating, so the shared machine's drift weighs on both alike.
    for (let roundIndex = 0; roundIndex < ROUNDS; roundIndex++) {
      runs['one_worker']!.push(await ingestOnce(postgres.adminUrl, postgresPort, 1, documents));
      runs['two_workers']!.push(await ingestOnce(postgres.adminUrl, postgresPort, 2, documents));
    }
    const ingestion: Record<string, unknown> = {
      corpus: `the ${documents.length} QA Markdown documents, 1,000 per POST /sources/batch to one API replica (ckb serve --no-ingest); workers with the default concurrency`,
    };
    for (const [name, list] of Object.entries(runs)) {
      const middle = list.toSorted((a, b) => a.seconds - b.seconds)[Math.floor(list.length / 2)]!;
      ingestion[name] = {
        ...middle,
        runs_text_mb_per_second: list.map((item) => item.text_mb_per_second),
      };
    }
    const rate = (name: string) => (ingestion[name] as { text_mb_per_second: number }).text_mb_per_second;
    ingestion['two_over_one_worker'] = round(rate('two_workers') / rate('one_worker'));
    const api = await apiThroughput(postgres.adminUrl, postgresPort, documents);
    return {
      machine: { cpus: cpus().length, load_average_1m: round(loadavg()[0]!, 1) },
      ingestion,
      api,
    };
  } finally {
    await postgres.stop();
  }
}

if (import.meta.main) console.log(JSON.stringify(await run(), null, 2));
