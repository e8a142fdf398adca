import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const cli = resolve(import.meta.dirname, '../dist/src/cli/main.js');
const resultsFile = resolve(import.meta.dirname, 'results/cli.json');
const RUNS = 30;
const WARM_UP = 3;

export interface CliFigures {
  runs: number;
  median_ms: { bare_node: number; help: number; app_list: number };
  p90_ms: { bare_node: number; help: number; app_list: number };
  /** `ckb --help` over bare `node -e 0`; the target is ≤ 1.5. */
  help_over_bare: number;
  app_list_over_bare: number;
  node: string;
  cpus: number;
  load_average_1m: number;
  measured_at: string;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise((done) => server.close(done));
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

/** Wall-clock milliseconds of one process, spawn to exit, as a user at a shell would feel it. */
function time(args: readonly string[], env: NodeJS.ProcessEnv): number {
  const start = performance.now();
  const result = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const elapsed = performance.now() - start;
  if (result.status !== 0)
    throw new Error(`node ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return elapsed;
}

function quantile(values: readonly number[], q: number): number {
  const sorted = values.toSorted((left, right) => left - right);
  const position = (sorted.length - 1) * q;
  const low = sorted[Math.floor(position)] ?? 0;
  const high = sorted[Math.ceil(position)] ?? low;
  return low + (high - low) * (position - Math.floor(position));
}

const round = (value: number) => Math.round(value * 10) / 10;

export async function run(): Promise<CliFigures> {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` first`);
  const home = mkdtempSync(join(tmpdir(), 'ckb-bench-cli-'));
  const env = { ...process.env, CKB_HOME: home, CKB_URL: `http://127.0.0.1:${await freePort()}` };
  const started = spawnSync(process.execPath, [cli, 'daemon', 'start'], { env, encoding: 'utf8' });
  if (started.status !== 0) throw new Error(`ckb daemon start failed: ${started.stderr}`);
  try {
    const commands = {
      bare_node: ['-e', '0'],
      help: [cli, '--help'],
      app_list: [cli, 'app', 'list'],
    } as const;
    const names = Object.keys(commands) as (keyof typeof commands)[];
    const samples = { bare_node: [] as number[], help: [] as number[], app_list: [] as number[] };
    for (let round = 0; round < WARM_UP + RUNS; round += 1) {
      // Interleaved, so a burst of load elsewhere on the machine hits every command alike.
      for (const name of names) {
        const elapsed = time(commands[name], env);
        if (round >= WARM_UP) samples[name].push(elapsed);
      }
    }
    const median = (name: keyof typeof samples) => round(quantile(samples[name], 0.5));
    const p90 = (name: keyof typeof samples) => round(quantile(samples[name], 0.9));
    const figures: CliFigures = {
      runs: RUNS,
      median_ms: { bare_node: median('bare_node'), help: median('help'), app_list: median('app_list') },
      p90_ms: { bare_node: p90('bare_node'), help: p90('help'), app_list: p90('app_list') },
      help_over_bare:
        Math.round((quantile(samples.help, 0.5) / quantile(samples.bare_node, 0.5)) * 100) / 100,
      app_list_over_bare:
        Math.round((quantile(samples.app_list, 0.5) / quantile(samples.bare_node, 0.5)) * 100) / 100,
      node: process.version,
      cpus: cpus().length,
      load_average_1m: round(loadavg()[0] ?? 0),
      measured_at: new Date().toISOString(),
    };
    mkdirSync(resolve(import.meta.dirname, 'results'), { recursive: true });
    writeFileSync(resultsFile, `${JSON.stringify(figures, null, 2)}\n`);
    return figures;
  } finally {
    spawnSync(process.execPath, [cli, 'daemon', 'stop'], { env });
    rmSync(home, { recursive: true, force: true });
  }
}

if (import.meta.main) console.log(JSON.stringify(await run(), null, 2));
