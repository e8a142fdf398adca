// API throughput and latency: GET /applications/{id} on the daemon beside a minimal Koa hello-world,
// measured in alternating rounds in the same run so machine noise hits both alike.
import autocannon from 'autocannon';
import { median, round, startServer } from './support.ts';

const CONNECTIONS = 32;
const ROUNDS = 3;
const SECONDS = 5;

async function load(url: string, headers: Record<string, string>) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

export async function run(): Promise<Record<string, unknown>> {
  const daemon = await startServer('daemon');
  const hello = await startServer('koa-hello');
  try {
    const app = await daemon.call('POST', '/applications', { name: 'bench' });
    const daemonUrl = `${daemon.url}/applications/${app.id}`;
    const auth = { authorization: `Bearer ${daemon.apiKey}` };
    await load(daemonUrl, auth);
    await load(hello.url, {});
    const ckb = [];
    const peer = [];
    for (let round = 0; round < ROUNDS; round++) {
      ckb.push(await load(daemonUrl, auth));
      peer.push(await load(hello.url, {}));
    }
    const ckbRps = median(ckb.map((r) => r.requestsPerSecond));
    const helloRps = median(peer.map((r) => r.requestsPerSecond));
    return {
      connections: CONNECTIONS,
      rounds: ROUNDS,
      seconds_per_round: SECONDS,
      ckb_get_application: {
        requests_per_second: round(ckbRps, 0),
        p50_ms: median(ckb.map((r) => r.p50)),
        p99_ms: median(ckb.map((r) => r.p99)),
        errors: ckb.reduce((sum, r) => sum + r.errors, 0),
      },
      koa_hello_world: {
        requests_per_second: round(helloRps, 0),
        p50_ms: median(peer.map((r) => r.p50)),
        p99_ms: median(peer.map((r) => r.p99)),
      },
      throughput_ratio: round(ckbRps / helloRps),
      targets: { throughput_ratio: '>= 0.5', p99_ms: '< 20' },
    };
  } finally {
    await daemon.stop();
    await hello.stop();
  }
}

if (import.meta.main) console.log(JSON.stringify(await run(), null, 2));
