import { readFile, rm } from 'node:fs/promises';
import { expect, test } from 'vitest';
import { type DaemonProcess, spawnDaemon } from '../support/daemon-process.ts';
import { newHome } from '../support/home.ts';
import { percentile, recordFigures, sleep } from './support.ts';

const CLIENTS = 50;
const SECONDS = Number(process.env['CKB_LOAD_SECONDS'] ?? 60);
const MEMORY_LIMIT_BYTES = 1024 * 1024 * 1024;

const PARAGRAPH =
  'The keeper climbs the granite tower at dusk, trims the lantern wick and logs the tide, the wind and every ship that passes the reef.';

interface Tally {
  latencies: Map<string, number[]>;
  statuses: Map<number, number>;
  serverErrors: string[];
  applications: Set<string>;
  deletedApplications: Set<string>;
  sources: Set<string>;
  files: Set<string>;
  turns: { conversation: string; message: string }[];
}

async function rss(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
}

function timed(daemon: DaemonProcess, tally: Tally) {
  return async (operation: string, method: string, path: string, body?: unknown, raw?: string) => {
    const started = performance.now();
    const response = await fetch(`${path.startsWith('http') ? '' : daemon.url}${path}`, {
      method,
      headers: raw
        ? {}
        : {
            authorization: `Bearer ${daemon.apiKey}`,
            ...(body ? { 'content-type': 'application/json' } : {}),
          },
      ...(raw ? { body: raw } : body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    const ms = performance.now() - started;
    const list = tally.latencies.get(operation) ?? [];
    list.push(ms);
    tally.latencies.set(operation, list);
    tally.statuses.set(response.status, (tally.statuses.get(response.status) ?? 0) + 1);
    if (response.status >= 500)
      tally.serverErrors.push(`${operation} ${response.status} ${text.slice(0, 200)}`);
    return { status: response.status, text };
  };
}

/** One client: its own application, then a random mix of every kind of request until the deadline. */
async function client(daemon: DaemonProcess, tally: Tally, index: number, deadline: number): Promise<void> {
  const call = timed(daemon, tally);
  const created = await call('create application', 'POST', '/applications', { name: `client-${index}` });
  const application = JSON.parse(created.text).id as string;
  tally.applications.add(application);
  let conversation: string | undefined;
  const ownApplications: string[] = [];
  let step = 0;
  while (Date.now() < deadline) {
    step += 1;
    const choice = Math.random();
    if (choice < 0.12) {
      const { status, text } = await call('create application', 'POST', '/applications', {
        name: `extra-${index}-${step}`,
      });
      if (status === 201) {
        const id = JSON.parse(text).id;
        tally.applications.add(id);
        ownApplications.push(id);
      }
    } else if (choice < 0.27) {
      await call(
        'list',
        'GET',
        Math.random() < 0.5 ? '/applications' : `/applications/${application}/sources`,
      );
    } else if (choice < 0.37) {
      const { status, text } = await call('create source', 'POST', '/sources', {
        application_id: application,
        type: 'text',
        name: `note-${step}`,
        content: `${PARAGRAPH} Entry ${index}.${step}.\n\n${PARAGRAPH}`,
      });
      if (status === 201) tally.sources.add(JSON.parse(text).id);
    } else if (choice < 0.45) {
      const presigned = await call('presign', 'GET', `/files/presigned-url?name=log-${step}.txt`);
      if (presigned.status !== 200) continue;
      const { file_id, presigned_url } = JSON.parse(presigned.text);
      const uploaded = await call(
        'upload',
        'PUT',
        presigned_url,
        undefined,
        `${PARAGRAPH} File ${index}.${step}.`,
      );
      if (uploaded.status !== 200) continue;
      tally.files.add(file_id);
      const source = await call('create source', 'POST', '/sources', {
        application_id: application,
        type: 'file',
        name: `log-${step}.txt`,
        content: file_id,
      });
      if (source.status === 201) tally.sources.add(JSON.parse(source.text).id);
    } else if (choice < 0.57) {
      await call('search', 'POST', `/applications/${application}/search`, { query: 'lantern tide' });
    } else if (choice < 0.87) {
      const stream = Math.random() < 0.5;
      const message = `question ${index}.${step}: who trims the lantern?`;
      const body = {
        message,
        stream,
        ...(conversation ? { conversation_id: conversation } : { application_id: application }),
      };
      const { status, text } = await call(
        stream ? 'conversation (streamed)' : 'conversation',
        'POST',
        '/conversations',
        body,
      );
      if (status !== 200) continue;
      const reply = stream
        ? JSON.parse(/event: done\ndata: (.*)\n/.exec(text)?.[1] ?? 'null')
        : JSON.parse(text);
      if (!reply) continue;
      conversation = Math.random() < 0.2 ? undefined : reply.conversation_id;
      tally.turns.push({ conversation: reply.conversation_id, message });
    } else {
      const victim = ownApplications.shift();
      if (!victim) continue;
      const { status } = await call('delete application', 'DELETE', `/applications/${victim}`);
      if (status === 200) tally.deletedApplications.add(victim);
    }
  }
}

async function verify(daemon: DaemonProcess, tally: Tally): Promise<number> {
  let lost = 0;
  const get = async (path: string) => {
    const response = await fetch(`${daemon.url}${path}`, {
      headers: { authorization: `Bearer ${daemon.apiKey}` },
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const applications = new Set((await get('/applications')).body.map((item: { id: string }) => item.id));
  for (const id of tally.applications) {
    const present = applications.has(id);
    if (present === tally.deletedApplications.has(id)) lost += 1;
  }
  const sources = new Set((await get('/sources')).body.map((item: { id: string }) => item.id));
  for (const id of tally.sources) if (!sources.has(id)) lost += 1;
  const files = new Set((await get('/files')).body.map((item: { id: string }) => item.id));
  for (const id of tally.files) if (!files.has(id)) lost += 1;
  const conversations = new Map<string, string[]>();
  for (const turn of tally.turns) {
    if (!conversations.has(turn.conversation)) {
      const { body } = await get(`/conversations/${turn.conversation}`);
      conversations.set(
        turn.conversation,
        (body.messages ?? []).map((message: { content: string }) => message.content),
      );
    }
    if (!conversations.get(turn.conversation)!.includes(turn.message)) lost += 1;
  }
  return lost;
}

test(`${CLIENTS} clients, mixed workload for ${SECONDS} s: no 5xx, no lost write, bounded memory`, async () => {
  const home = await newHome();
  const daemon = await spawnDaemon(home);
  const tally: Tally = {
    latencies: new Map(),
    statuses: new Map(),
    serverErrors: [],
    applications: new Set(),
    deletedApplications: new Set(),
    sources: new Set(),
    files: new Set(),
    turns: [],
  };
  const memory: number[] = [await rss(daemon.child.pid!)];
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      await sleep(1_000);
      memory.push(await rss(daemon.child.pid!));
    }
  })();
  try {
    const deadline = Date.now() + SECONDS * 1_000;
    const started = performance.now();
    await Promise.all(Array.from({ length: CLIENTS }, (_, index) => client(daemon, tally, index, deadline)));
    const elapsed = (performance.now() - started) / 1_000;
    sampling = false;
    await sampler;
    const lost = await verify(daemon, tally);
    const all = [...tally.latencies.values()].flat();
    const latency = (values: number[]) => ({
      count: values.length,
      p50_ms: Math.round(percentile(values, 0.5) * 10) / 10,
      p95_ms: Math.round(percentile(values, 0.95) * 10) / 10,
      p99_ms: Math.round(percentile(values, 0.99) * 10) / 10,
      max_ms: Math.round(Math.max(...values)),
    });
    await recordFigures('load', {
      clients: CLIENTS,
      seconds: SECONDS,
      requests: all.length,
      requests_per_second: Math.round(all.length / elapsed),
      statuses: Object.fromEntries(tally.statuses),
      server_errors: tally.serverErrors.length,
      acknowledged: {
        applications: tally.applications.size,
        application_deletes: tally.deletedApplications.size,
        sources: tally.sources.size,
        files: tally.files.size,
        turns: tally.turns.length,
      },
      lost_writes: lost,
      latency: {
        all: latency(all),
        ...Object.fromEntries([...tally.latencies].map(([name, values]) => [name, latency(values)])),
      },
      daemon_rss_mib: {
        start: Math.round(memory[0]! / 1048576),
        max: Math.round(Math.max(...memory) / 1048576),
        end: Math.round(memory.at(-1)! / 1048576),
        every_10_s: memory.filter((_, index) => index % 10 === 0).map((bytes) => Math.round(bytes / 1048576)),
      },
    });
    expect(tally.serverErrors.slice(0, 5)).toEqual([]);
    expect(lost).toBe(0);
    expect(Math.max(...memory)).toBeLessThan(MEMORY_LIMIT_BYTES);
  } finally {
    sampling = false;
    await daemon.kill('SIGTERM');
    await rm(home, { recursive: true, force: true });
  }
});
