import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { chunkContextText } from '../daemon/ingest/chunk.ts';
import type { Chunk } from '../daemon/ingest/types.ts';
import type { LiveSources } from '../daemon/retrieve/index.ts';
import type { ChunkRecord } from '../daemon/store/chunk-index.ts';
import { daemonEnvironment } from '../src/cli/daemon-environment.ts';

export interface BenchServer {
  url: string;
  apiKey: string;
  pid: number;
  home: string;
  child: ChildProcess;
  call(method: string, path: string, body?: unknown): Promise<any>;
  stop(): Promise<void>;
}

/**
 * Starts one of `bench/servers/*.ts` in its own process and reads the JSON line it prints; `root` runs another
 * checkout's copy (bench/baseline.ts).
 */
export async function startServer(
  name: 'daemon' | 'koa-hello',
  home?: string,
  root = resolve(import.meta.dirname, '..'),
): Promise<BenchServer> {
  const directory = home ?? (await mkdtemp(join(tmpdir(), 'ckb-bench-')));
  const script = join(root, 'bench', 'servers', `${name}.ts`);
  // As `ckb daemon start` runs it; the baseline's daemon as it ran then.
  const own = root === resolve(import.meta.dirname, '..');
  const env = { ...process.env, CKB_HOME: directory };
  const child = spawn(process.execPath, [script, directory], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: own ? daemonEnvironment(env) : env,
  });
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  const info = JSON.parse(line) as { url: string; apiKey?: string; pid: number };
  const apiKey = info.apiKey ?? '';
  return {
    url: info.url,
    apiKey,
    pid: info.pid,
    home: directory,
    child,
    async call(method, path, body) {
      const response = await fetch(`${info.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${apiKey}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const parsed = await response.json();
      if (!response.ok) throw new Error(`${method} ${path}: ${JSON.stringify(parsed)}`);
      return parsed;
    },
    async stop() {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export function median(values: number[]): number {
  const sorted = values.toSorted((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function percentile(values: number[], p: number): number {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** Each score's probability under a softmax, shifted by the top score so no exponential overflows. */
export function softmax(scores: number[]): number[] {
  const top = Math.max(...scores);
  const exponentials = scores.map((score) => Math.exp(score - top));
  const sum = exponentials.reduce((total, value) => total + value, 0);
  return exponentials.map((value) => value / sum);
}

/**
 * The softmax over the chosen scores alone, 0 for the rest: the wanted candidates' share of the loss gradient.
 * Shifted by their own top, not by the top of all, whose shift underflows every exponential to zero when the
 * chosen ones score some 745 below the best, and 0/0 turns the gradient NaN.
 */
export function softmaxAmong(scores: number[], chosen: readonly boolean[]): number[] {
  return softmax(scores.map((score, index) => (chosen[index] ? score : Number.NEGATIVE_INFINITY)));
}

/** The smallest of the values at or below which `share` of them fall: a floor turning away that share. */
export function shareFloor(values: number[], share: number): number {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.ceil(share * sorted.length) - 1] ?? 0;
}

/**
 * Each column's mean and standard deviation, for fitting on standardised features: their spreads differ tenfold,
 * and one learning rate suits them all only once standardised. A column that hardly varies keeps a spread of 1.
 */
export function standardisation(rows: number[][]): { means: number[]; deviations: number[] } {
  const width = rows[0]?.length ?? 0;
  const means = Array.from({ length: width }, (_, column) => mean(rows.map((row) => row[column]!)));
  const deviations = means.map((columnMean, column) =>
    Math.sqrt(mean(rows.map((row) => (row[column]! - columnMean) ** 2))),
  );
  return { means, deviations: deviations.map((deviation) => (deviation > 1e-9 ? deviation : 1)) };
}

function mean(values: number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
}

/** Peak resident memory of a process so far, in MiB (Linux). */
export async function peakRssMib(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return round(kib / 1024, 1);
}

/** CPU time a process has used so far, in seconds (Linux: user and system clock ticks from /proc). */
export async function cpuSeconds(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** How long a process must stay idle (under 2% of a core) to count as done, and how long to wait for that. */
export interface IdleWait {
  quietSeconds?: number;
  limitSeconds?: number;
}

/**
 * Waits until a process has gone idle: by default under 2% of a core for two seconds, longer than the daemon waits
 * before refreshing its indexes after a burst. Returns how long it stayed busy, about to the quarter second: what
 * it still did after answering, which would otherwise land in the next run.
 */
export async function waitIdle(
  pid: number,
  { quietSeconds = 2, limitSeconds = 60 }: IdleWait = {},
): Promise<number> {
  const started = performance.now();
  const quietSamples = quietSeconds * 4;
  const samples = [await cpuSeconds(pid)];
  while (performance.now() - started < limitSeconds * 1000) {
    await new Promise((done) => setTimeout(done, 250));
    samples.push(await cpuSeconds(pid));
    if (
      samples.length > quietSamples &&
      samples.at(-1)! - samples.at(-1 - quietSamples)! <= 0.02 * quietSeconds
    )
      break;
  }
  return round(Math.max(0, (performance.now() - started) / 1000 - quietSeconds));
}

/** Chunks for a benchmark's own index: one application, each source at generation 1, as ingestion writes them. */
export function benchRecords(chunks: Chunk[], sourceId: string, applicationId = 'bench'): ChunkRecord[] {
  return chunks.map((chunk) => ({
    ...chunk,
    sourceId,
    applicationId,
    accountId: 'bench',
    generation: 1,
    searchText: chunkContextText(chunk),
  }));
}

/** Every source a benchmark's index holds is live, at generation 1, named by its id. */
export function allLive(allowed?: (sourceId: string) => boolean): LiveSources {
  return async (ids) =>
    new Map(ids.filter((id) => allowed?.(id) ?? true).map((id) => [id, { name: id, generation: 1 }]));
}

/** A benchmark's own chunk index in `directory`, with no ingestion beside it. */
export function benchIndexOptions(directory: string) {
  return { directory, busy: () => false, onRefreshError: () => {} };
}
