import { rm } from 'node:fs/promises';
import { expect, test } from 'vitest';
import { type DaemonProcess, spawnDaemon } from '../support/daemon-process.ts';
import { newHome } from '../support/home.ts';
import { prose } from '../support/prose.ts';
import { readStorage, storageProblems } from '../support/storage.ts';
import { percentile, recordFigures, sleep } from './support.ts';

const CYCLES = 20;
const SOURCES = Array.from({ length: 20 }, (_, index) => ({
  name: `doc-${index}`,
  content: prose(index, 150),
}));

async function request(daemon: DaemonProcess, method: string, path: string, body?: unknown) {
  const response = await fetch(`${daemon.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${daemon.apiKey}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text,
  };
}

async function waitSettled(daemon: DaemonProcess, timeoutMs = 120_000): Promise<any[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await request(daemon, 'GET', '/sources');
    if (body.every((source: any) => source.embed_status === 'COMPLETED' || source.embed_status === 'FAILED'))
      return body;
    if (Date.now() > deadline) throw new Error('sources still in progress');
    await sleep(100);
  }
}

async function chunkTexts(daemon: DaemonProcess, id: string): Promise<string[]> {
  return (await request(daemon, 'GET', `/sources/${id}/chunks`)).body.map(
    (chunk: { text: string }) => chunk.text,
  );
}

/** What the daemon acknowledged before it was killed; all of it must be there after every restart. */
interface Acknowledged {
  sources: Map<string, string>;
  turns: { conversation: string; message: string }[];
  deletedApplications: string[];
}

async function checkAcknowledged(daemon: DaemonProcess, acknowledged: Acknowledged, application: string) {
  for (const [id, name] of acknowledged.sources) {
    const { status } = await request(daemon, 'GET', `/sources/${id}`);
    expect(status, `source ${name}`).toBe(200);
  }
  const conversations = new Map<string, any>();
  for (const turn of acknowledged.turns) {
    if (!conversations.has(turn.conversation))
      conversations.set(
        turn.conversation,
        (await request(daemon, 'GET', `/conversations/${turn.conversation}`)).body,
      );
    const messages = conversations.get(turn.conversation).messages as { role: string; content: string }[];
    const at = messages.findIndex((message) => message.role === 'user' && message.content === turn.message);
    expect(at, turn.message).toBeGreaterThanOrEqual(0);
    expect(messages[at + 1]?.role).toBe('assistant');
    expect(messages.filter((message) => message.content === turn.message)).toHaveLength(1);
  }
  for (const id of acknowledged.deletedApplications)
    expect((await request(daemon, 'GET', `/applications/${id}`)).status).toBe(404);
  for (const conversation of (await request(daemon, 'GET', `/applications/${application}/conversations`))
    .body) {
    const { messages } = (await request(daemon, 'GET', `/conversations/${conversation.id}`)).body;
    expect(messages.length % 2, 'no half turn').toBe(0);
    expect(messages.map((message: { role: string }) => message.role)).toEqual(
      messages.map((_: unknown, index: number) => (index % 2 ? 'assistant' : 'user')),
    );
  }
}

/** Adds sources, runs plain and streamed turns and deletes whole applications until `stop` is set. */
function workload(
  daemon: DaemonProcess,
  application: string,
  pending: typeof SOURCES,
  acknowledged: Acknowledged,
  counter: { turns: number },
  stop: { now: boolean },
): Promise<unknown> {
  const ingest = (async () => {
    for (let taken = 0; taken < 1 && pending.length > 0 && !stop.now; taken++) {
      const source = pending.shift()!;
      const { status, body } = await request(daemon, 'POST', '/sources', {
        application_id: application,
        type: 'text',
        ...source,
      });
      if (status === 201) acknowledged.sources.set(body.id, source.name);
    }
  })();
  const talk = (async () => {
    let conversation: string | undefined;
    while (!stop.now) {
      const message = `question ${counter.turns++} about the harbour lantern`;
      const stream = counter.turns % 2 === 0;
      const response = await fetch(`${daemon.url}/conversations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${daemon.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          message,
          stream,
          ...(conversation ? { conversation_id: conversation } : { application_id: application }),
        }),
      });
      const text = await response.text();
      if (response.status !== 200) continue;
      const reply = stream
        ? JSON.parse(/event: done\ndata: (.*)\n/.exec(text)?.[1] ?? 'null')
        : JSON.parse(text);
      if (!reply) continue;
      conversation = reply.conversation_id;
      acknowledged.turns.push({ conversation: reply.conversation_id, message });
    }
  })();
  const churn = (async () => {
    while (!stop.now) {
      const { body: app } = await request(daemon, 'POST', '/applications', { name: 'short-lived' });
      await request(daemon, 'POST', '/sources', {
        application_id: app.id,
        type: 'text',
        name: 'brief',
        content: prose(99, 20),
      });
      await request(daemon, 'POST', '/conversations', { application_id: app.id, message: 'storm?' });
      const { status } = await request(daemon, 'DELETE', `/applications/${app.id}`);
      if (status === 200) acknowledged.deletedApplications.push(app.id);
    }
  })();
  // A killed daemon rejects whatever was in flight; that is the point, not a failure.
  return Promise.allSettled([ingest, talk, churn]);
}

async function cleanRun(): Promise<Map<string, string[]>> {
  const home = await newHome();
  try {
    const daemon = await spawnDaemon(home);
    const application = (await request(daemon, 'POST', '/applications', { name: 'clean' })).body.id;
    for (const source of SOURCES)
      await request(daemon, 'POST', '/sources', { application_id: application, type: 'text', ...source });
    const expected = new Map<string, string[]>();
    for (const source of await waitSettled(daemon))
      expected.set(source.name, await chunkTexts(daemon, source.id));
    await daemon.kill('SIGTERM');
    return expected;
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

test(`${CYCLES} SIGKILLs at random moments lose no acknowledged write and converge to a clean run`, async () => {
  const expected = await cleanRun();
  const home = await newHome();
  const restarts: number[] = [];
  let killedWhileIngesting = 0;
  const acknowledged: Acknowledged = { sources: new Map(), turns: [], deletedApplications: [] };
  const counter = { turns: 0 };
  const pending = [...SOURCES];
  try {
    let daemon = await spawnDaemon(home);
    const application = (await request(daemon, 'POST', '/applications', { name: 'crashing' })).body.id;
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const stop = { now: false };
      const running = workload(daemon, application, pending, acknowledged, counter, stop);
      await sleep(150 + Math.random() * 1_500);
      const statuses = (await request(daemon, 'GET', '/sources')).body.map(
        (source: any) => source.embed_status,
      );
      if (statuses.some((status: string) => status === 'PENDING' || status === 'PROCESSING'))
        killedWhileIngesting += 1;
      await daemon.kill('SIGKILL');
      stop.now = true;
      await running;
      const started = performance.now();
      daemon = await spawnDaemon(home);
      restarts.push(performance.now() - started);
      await checkAcknowledged(daemon, acknowledged, application);
    }
    const sources = await waitSettled(daemon);
    const crashing = sources.filter((source) => source.application_id === application);
    for (const source of crashing) {
      expect(source.embed_status, source.name).toBe('COMPLETED');
      expect(await chunkTexts(daemon, source.id), source.name).toEqual(expected.get(source.name));
    }
    for (const name of expected.keys())
      expect(
        crashing.some((source) => source.name === name),
        name,
      ).toBe(true);
    await checkAcknowledged(daemon, acknowledged, application);
    await daemon.kill('SIGTERM');
    const problems = storageProblems(await readStorage(home));
    expect(problems).toEqual([]);
    await recordFigures('crash_cycles', {
      cycles: CYCLES,
      killed_while_ingesting: killedWhileIngesting,
      acknowledged_sources: acknowledged.sources.size,
      acknowledged_turns: acknowledged.turns.length,
      acknowledged_application_deletes: acknowledged.deletedApplications.length,
      lost_acknowledged_writes: 0,
      sources_stuck: 0,
      chunk_mismatches_against_clean_run: 0,
      storage_problems: problems.length,
      restart_ms: { p50: Math.round(percentile(restarts, 0.5)), max: Math.round(Math.max(...restarts)) },
    });
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});

test('SIGKILL in the middle of deleting an application leaves it wholly gone after restart, no orphans', async () => {
  const home = await newHome();
  const outcomes: string[] = [];
  try {
    let daemon = await spawnDaemon(home);
    for (let round = 0; round < 5; round++) {
      const application = (await request(daemon, 'POST', '/applications', { name: `doomed-${round}` })).body
        .id;
      for (const source of SOURCES.slice(0, 4))
        await request(daemon, 'POST', '/sources', { application_id: application, type: 'text', ...source });
      await waitSettled(daemon);
      for (let turn = 0; turn < 3; turn++)
        await request(daemon, 'POST', '/conversations', {
          application_id: application,
          message: `storm ${turn}?`,
        });
      const deleting = request(daemon, 'DELETE', `/applications/${application}`).catch(() => undefined);
      await sleep(round * 8);
      await daemon.kill('SIGKILL');
      const answer = await deleting;
      daemon = await spawnDaemon(home);
      const after = await request(daemon, 'GET', `/applications/${application}`);
      if (answer?.status === 200) expect(after.status).toBe(404);
      outcomes.push(after.status === 404 ? 'deleted' : 'kept whole');
      if (after.status === 200) {
        expect((await request(daemon, 'GET', `/applications/${application}/sources`)).body).toHaveLength(4);
      }
    }
    await daemon.kill('SIGTERM');
    expect(storageProblems(await readStorage(home))).toEqual([]);
    await recordFigures('crash_mid_application_delete', {
      rounds: outcomes.length,
      outcomes,
      storage_problems: 0,
    });
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});
