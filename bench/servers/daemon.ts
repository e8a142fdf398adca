// A ckb daemon in its own process for benchmarks: prints its URL and admin key as one JSON line.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

// The compiled daemon, as `ckb serve` runs it (`npm run bench` builds first); typed by its source.
const compiled: string = '../../dist/daemon/main.js';
const { runDaemon } = (await import(compiled)) as typeof import('../../daemon/main.ts');

const [home] = process.argv.slice(2);
if (!home) throw new Error('usage: daemon.ts HOME');
const daemon = await runDaemon({ home, port: 0 });
const { api_key } = JSON.parse(await readFile(join(home, 'config.json'), 'utf8')) as { api_key: string };
process.stdout.write(`${JSON.stringify({ url: daemon.url, apiKey: api_key, pid: process.pid })}\n`);
