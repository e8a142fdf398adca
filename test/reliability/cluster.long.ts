import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { chunkDocument } from '../../daemon/ingest/chunk.ts';
import { openDatabase } from '../../daemon/store/database.ts';
import { LAPSED_LEASE } from '../../daemon/store/jobs.ts';
import {
  adminKeyOf,
  type CkbProcess,
  call,
  leaseHome,
  sharedStorage,
  startCkbProcess,
  stopAll,
} from '../support/cluster.ts';
import { findNginx, freePort, type RunningNginx, readmeNginxConfig, startNginx } from '../support/nginx.ts';
import { createDatabase, startPostgresCluster } from '../support/postgres.ts';
import { prose } from '../support/prose.ts';
import { startServer } from '../support/static-server.ts';
import { readStorage, storageProblems } from '../support/storage.ts';
import { recordFigures, sleep } from './support.ts';

const CLIENTS = 8;
const WORKLOAD_MS = 24_000;
const KILL_AT_MS = 7_000;
const RESTART_AT_MS = 14_000;
const MAX_SOURCES = 160;

interface Exchange {
  method: string;
  path: string;
  started: number;
  ended: number;
  status: number;
}

interface Acknowledged {
  id: string;
  type: 'text' | 'url' | 'file';
  /** For text sources, the text; for the others, what a reference source is added from again. */
  content: string;
  name: string;
}

const nginx = findNginx();
if (!nginx) {
  if (process.env['CI'])
    throw new Error('nginx is missing: the cluster test needs it in CI (apt-get install nginx)');
  console.log('skipped the nginx front of the cluster test: nginx is absent (apt-get install nginx)');
}

test('two replicas behind nginx and two workers: SIGKILL a worker and a replica mid-ingestion, lose nothing', async () => {
  const cluster = await startPostgresCluster();
  const databaseUrl = await createDatabase(cluster.adminUrl);
  const [portA, portB, portFront] = [await freePort(), await freePort(), await freePort()];
  // Behind nginx, pre-signed upload URLs name the front, as CKB_PUBLIC_URL does in the README.
  const shared = await sharedStorage(
    databaseUrl,
    nginx ? { public_url: `http://127.0.0.1:${portFront}` } : {},
  );
  const site = await startServer((request, response) => {
    const page = Number(/\/page\/(\d+)/.exec(request.url ?? '')?.[1] ?? 0);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      `<html><head><title>Page ${page}</title></head><body><main><h1>Page ${page}</h1>${prose(1000 + page, 20)
        .split('\n\n')
        .map((paragraph) => `<p>${paragraph}</p>`)
        .join('')}</main></body></html>`,
    );
  });
  const database = await openDatabase({ kind: 'postgres', url: databaseUrl });
  const reader = await mkdtemp(join(tmpdir(), 'ckb-reader-'));
  const uploads = await mkdtemp(join(tmpdir(), 'ckb-uploads-'));
  const processes: CkbProcess[] = [];
  let front: RunningNginx | undefined;
  try {
    const replicaA = await startCkbProcess('api', shared, { port: portA });
    processes.push(replicaA);
    const started = await Promise.all([
      startCkbProcess('api', shared, { port: portB }),
      startCkbProcess('worker', shared, { args: ['--concurrency', '4'] }),
      startCkbProcess('worker', shared, { args: ['--concurrency', '4'] }),
    ]);
    processes.push(...started);
    const [replicaB, workerOne, workerTwo] = started as [CkbProcess, CkbProcess, CkbProcess];
    const key = await adminKeyOf(replicaA);
    if (nginx)
      front = await startNginx(
        nginx,
        await readmeNginxConfig([`127.0.0.1:${portA}`, `127.0.0.1:${portB}`], portFront),
        portFront,
      );
    const app = (await call(replicaA.url, key, 'POST', '/applications', { name: 'cluster' })).body.id;

    // Without nginx, the clients spread their requests over the replicas that are up themselves.
    const alive = new Set([replicaA.url, replicaB.url]);
    let turn = 0;
    const target = () => front?.url ?? [...alive][turn++ % alive.size]!;
    const exchanges: Exchange[] = [];
    const acknowledged: Acknowledged[] = [];
    const conversations: string[] = [];
    let sourcesAsked = 0;
    const begun = Date.now();
    const stop = { now: false };

    async function exchange(
      method: string,
      path: string,
      send: () => Promise<{ status: number; body: any }>,
    ) {
      const record: Exchange = { method, path, started: Date.now(), ended: 0, status: 0 };
      exchanges.push(record);
      try {
        const response = await send();
        record.status = response.status;
        return response;
      } catch {
        return { status: 0, body: undefined };
      } finally {
        record.ended = Date.now();
      }
    }

    async function addSource(body: Record<string, unknown>, content: string): Promise<void> {
      const response = await exchange('POST', '/sources', () =>
        call(target(), key, 'POST', '/sources', { application_id: app, ...body }),
      );
      if (response.status === 201)
        acknowledged.push({
          id: response.body.id,
          type: body['type'] as Acknowledged['type'],
          content,
          name: String(body['name']),
        });
    }

    async function client(seed: number): Promise<void> {
      for (let step = 0; !stop.now; step++) {
        const choice = (seed * 7 + step * 13) % 10;
        if (choice < 6 && sourcesAsked < MAX_SOURCES) {
          const index = sourcesAsked++;
          const content = `Animal ${index}: the creature${index} lives here.\n\n${prose(index, 20 + ((index * 37) % 180))}`;
          await addSource({ name: `text ${index}`, type: 'text', content }, content);
        } else if (choice === 6 && sourcesAsked < MAX_SOURCES) {
          const index = sourcesAsked++;
          const url = `${site.origin}/page/${index}`;
          await addSource({ name: `page ${index}`, type: 'url', content: url }, url);
        } else if (choice === 7 && sourcesAsked < MAX_SOURCES) {
          const index = sourcesAsked++;
          const path = join(uploads, `note-${index}.md`);
          await writeFile(path, `# Note ${index}\n\n${prose(2000 + index, 30)}\n`);
          const presigned = await exchange('GET', '/files/presigned-url', () =>
            call(target(), key, 'GET', `/files/presigned-url?name=note-${index}.md`),
          );
          if (presigned.status !== 200) continue;
          // The URL names the front (CKB_PUBLIC_URL) or a replica; either accepts what the other signed.
          const put = await exchange('PUT', '/files/upload', async () => {
            const response = await fetch(presigned.body.presigned_url, {
              method: 'PUT',
              body: await readFile(path),
            });
            return { status: response.status, body: await response.json() };
          });
          if (put.status !== 200) continue;
          await addSource({ name: `note ${index}`, type: 'file', content: presigned.body.file_id }, path);
        } else {
          const existing = conversations[(seed + step) % Math.max(1, conversations.length)];
          const continuing = existing !== undefined && step % 2 === 0;
          const response = await exchange('POST', '/conversations', () =>
            call(target(), key, 'POST', '/conversations', {
              message: `what lives at creature${step}?`,
              // Streamed replies pass through the front as they are written.
              stream: continuing && step % 4 === 0,
              ...(continuing ? { conversation_id: existing } : { application_id: app }),
            }),
          );
          if (response.status === 200 && !continuing) conversations.push(response.body.conversation_id);
          await exchange('GET', '/sources', () =>
            call(target(), key, 'GET', `/applications/${app}/sources?limit=20`),
          );
        }
      }
    }

    const clients = Array.from({ length: CLIENTS }, (_, seed) => client(seed));

    // Mid-ingestion: kill the worker once it holds jobs, and a replica with it.
    await sleep(KILL_AT_MS);
    const heldBy = async (worker: CkbProcess) =>
      (
        await database.db
          .selectFrom('jobs')
          .select('lease_owner')
          .where('lease_owner', 'is not', null)
          .execute()
      ).filter((job) => leaseHome(job.lease_owner ?? '') === worker.home).length;
    while ((await heldBy(workerOne)) === 0) await sleep(20);
    const killedAt = Date.now();
    const leasesLost = await heldBy(workerOne);
    await Promise.all([workerOne.kill('SIGKILL'), replicaA.kill('SIGKILL')]);
    alive.delete(replicaA.url);

    // A replica started again on the same address rejoins the front.
    await sleep(RESTART_AT_MS - (Date.now() - begun));
    const replicaA2 = await startCkbProcess('api', shared, { port: portA });
    processes.push(replicaA2);
    alive.add(replicaA2.url);
    await sleep(WORKLOAD_MS - (Date.now() - begun));
    stop.now = true;
    await Promise.all(clients);

    // Every acknowledged source completes, once, with exactly its chunks.
    const settled = Date.now();
    const sources = new Map<string, any>();
    for (;;) {
      const listed = (await call(replicaB.url, key, 'GET', `/applications/${app}/sources`)).body as any[];
      if (listed.every((source) => source.embed_status === 'COMPLETED' || source.embed_status === 'FAILED')) {
        for (const source of listed) sources.set(source.id, source);
        break;
      }
      if (Date.now() - settled > 180_000) throw new Error('sources still in progress after 3 minutes');
      await sleep(200);
    }
    const allCompleted = Date.now();
    expect(acknowledged.length).toBeGreaterThan(40);
    for (const source of acknowledged) {
      expect(sources.get(source.id), source.name).toMatchObject({ embed_status: 'COMPLETED' });
      const chunks = (await call(replicaB.url, key, 'GET', `/sources/${source.id}/chunks`)).body as any[];
      expect(chunks.map((chunk) => chunk.index)).toEqual(chunks.map((_, index) => index));
      expect(chunks.length, source.name).toBe(sources.get(source.id).chunks);
      if (source.type === 'text')
        expect(chunks.map((chunk) => chunk.text)).toEqual(
          chunkDocument({ pages: [{ page: 1, text: source.content }] }).map((chunk) => chunk.text),
        );
    }
    // Web pages and uploads: the same content added once more, in calm, gives the same chunks.
    for (const source of acknowledged.filter((item) => item.type !== 'text').slice(0, 6)) {
      let content = source.content;
      if (source.type === 'file') {
        const presigned = (await call(replicaA2.url, key, 'GET', `/files/presigned-url?name=again.md`)).body;
        const body = await readFile(source.content);
        expect((await fetch(presigned.presigned_url, { method: 'PUT', body })).status).toBe(200);
        content = presigned.file_id;
      }
      const again = (
        await call(replicaA2.url, key, 'POST', '/sources', {
          application_id: app,
          name: `${source.name} again`,
          type: source.type,
          content,
        })
      ).body;
      for (;;) {
        const state = (await call(replicaB.url, key, 'GET', `/sources/${again.id}`)).body;
        if (state.embed_status === 'COMPLETED') break;
        expect(state.embed_status).not.toBe('FAILED');
        await sleep(100);
      }
      const texts = async (id: string) =>
        ((await call(replicaB.url, key, 'GET', `/sources/${id}/chunks`)).body as any[]).map(
          (chunk) => chunk.text,
        );
      expect(await texts(source.id), source.name).toEqual(await texts(again.id));
    }
    const completions = (await Promise.all([workerOne, workerTwo].map((worker) => worker.log())))
      .flat()
      .filter((entry) => entry['message'] === 'source ingested')
      .map((entry) => String(entry['source_id']));
    const completedOnce = [...sources.keys()].every(
      (id) => completions.filter((done) => done === id).length === 1,
    );
    expect(completedOnce, 'every source completed exactly once').toBe(true);
    const takenOver = [...sources.values()].filter((source) => source.last_error === LAPSED_LEASE);
    expect(takenOver.length).toBeGreaterThan(0);
    expect(takenOver.every((source) => source.attempts >= 2)).toBe(true);
    const lastTakeover = Math.max(...takenOver.map((source) => Date.parse(source.updated_at)));

    // The front kept serving: the only failures are requests in flight on the replica when it was killed, and
    // only those that nginx may not send again (they might have changed something).
    const failed = exchanges.filter((item) => item.status === 0 || item.status >= 500);
    const inFlightAtKill = (item: Exchange) => item.started <= killedAt + 50 && item.ended >= killedAt;
    if (front) {
      expect(failed.filter((item) => !(inFlightAtKill(item) && item.method !== 'GET'))).toEqual([]);
    }
    expect(exchanges.filter((item) => item.status >= 400 && item.status < 500)).toEqual([]);

    // Across replicas: a conversation begun on one continues on the other; a delete is at once seen by both.
    const opened = (
      await call(replicaB.url, key, 'POST', '/conversations', {
        application_id: app,
        message: 'Where does creature3 live?',
      })
    ).body;
    const continued = await call(replicaA2.url, key, 'POST', '/conversations', {
      conversation_id: opened.conversation_id,
      message: 'and creature4?',
    });
    expect(continued.status).toBe(200);
    const messages = (await call(replicaB.url, key, 'GET', `/conversations/${opened.conversation_id}`)).body
      .messages;
    expect(messages).toHaveLength(4);
    const doomed = acknowledged.find((source) => source.type === 'text')!;
    const word = /creature\d+/.exec(doomed.content)![0];
    const search = () =>
      call(replicaB.url, key, 'POST', `/applications/${app}/search`, { query: word, limit: 20 });
    expect(((await search()).body as any[]).map((hit) => hit.source_id)).toContain(doomed.id);
    expect((await call(replicaA2.url, key, 'DELETE', `/sources/${doomed.id}`)).status).toBe(200);
    expect((await call(replicaB.url, key, 'GET', `/sources/${doomed.id}`)).status).toBe(404);
    expect(((await search()).body as any[]).map((hit) => hit.source_id)).not.toContain(doomed.id);
    expect((await call(replicaB.url, key, 'GET', '/health')).body).toMatchObject({
      status: 'ok',
      queue: { waiting: 0, leased: 0, failed: 0 },
    });

    await stopAll(processes);
    processes.length = 0;
    await writeFile(join(reader, 'config.json'), JSON.stringify({ database_url: databaseUrl }));
    const storage = await readStorage(reader, join(shared.directory, 'db'));
    expect(storage.records.get('jobs')).toEqual([]);
    expect(storageProblems(storage)).toEqual([]);

    await recordFigures('cluster', {
      processes:
        '2 API replicas (ckb serve --no-ingest), 2 workers (--concurrency 4), PostgreSQL, one LanceDB directory',
      front: front ? 'nginx (the README configuration)' : 'none: nginx absent, clients spread over replicas',
      clients: CLIENTS,
      workload_seconds: WORKLOAD_MS / 1000,
      requests: exchanges.length,
      failed_requests: failed.length,
      failed_requests_in_flight_at_the_kill: failed.filter(inFlightAtKill).length,
      acknowledged_sources: acknowledged.length,
      leases_held_by_the_killed_worker: leasesLost,
      sources_taken_over: takenOver.length,
      seconds_from_the_kill_to_the_last_takeover: Math.round((lastTakeover - killedAt) / 100) / 10,
      seconds_from_the_end_of_the_workload_to_all_completed: Math.round((allCompleted - settled) / 100) / 10,
      every_source_completed_once: completedOnce,
      storage_problems: storageProblems(storage).length,
    });
  } finally {
    await stopAll(processes, shared);
    await front?.stop();
    await database.close();
    await site.close();
    await cluster.stop();
    await rm(reader, { recursive: true, force: true });
    await rm(uploads, { recursive: true, force: true });
  }
});
