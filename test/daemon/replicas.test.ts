import { mkdtemp, rm, writeFile } from 'node:fs/promises';
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
import { newDatabaseLocation, testDatabaseKind } from '../support/home.ts';
import { findNginx, freePort, type RunningNginx, readmeNginxConfig, startNginx } from '../support/nginx.ts';
import { prose } from '../support/prose.ts';
import { startServer } from '../support/static-server.ts';
import { readStorage, storageProblems } from '../support/storage.ts';

const nginx = findNginx();
if (!nginx && testDatabaseKind() === 'postgres') {
  if (process.env['CI'])
    throw new Error('nginx is missing: the replica test needs it in CI (apt-get install nginx)');
  console.log('skipped the nginx front of the replica test: nginx is absent (apt-get install nginx)');
}

/** Each text names an animal no other does, so a search for it finds that source alone. */
const ANIMALS = ['quokka', 'axolotl', 'pangolin', 'okapi', 'narwhal', 'tapir', 'dugong', 'kakapo'];
const TEXTS = ANIMALS.map((animal, index) => `The ${animal} is here.\n\n${prose(index, 60)}`);

const PAGE = `<html><head><title>Bell Rock</title></head><body><main><h1>The Bell Rock Lighthouse</h1>
${Array.from({ length: 12 }, (_, index) => `<p>Paragraph ${index}: the keeper of the Bell Rock lit the lamp at dusk and kept it burning through the storm until the dawn came over the North Sea.</p>`).join('\n')}
</main></body></html>`;

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// Real processes (`ckb serve --no-ingest`, `ckb worker`) on one PostgreSQL database and one LanceDB directory.
test.runIf(testDatabaseKind() === 'postgres')(
  'API replicas behind nginx and workers share one database: a killed worker’s job is taken over, a killed replica loses nothing and the front keeps serving, conversations and deletes cross replicas',
  async () => {
    const location = await newDatabaseLocation();
    if (location.kind !== 'postgres') throw new Error('expected PostgreSQL');
    // A short lease, so a killed worker's job is taken over within seconds.
    const shared = await sharedStorage(location.url, { limits: { ingest_lease_ms: 3_000 } });
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let releaseHeld = () => {};
    const held = new Promise<void>((resolve) => {
      releaseHeld = resolve;
    });
    const site = await startServer(async (request, response) => {
      if (request.url === '/slow') await released;
      if (request.url === '/held') await held;
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(PAGE);
    });
    const database = await openDatabase(location);
    const reader = await mkdtemp(join(tmpdir(), 'ckb-reader-'));
    const processes: CkbProcess[] = [];
    let front: RunningNginx | undefined;
    try {
      const [firstPort, secondPort] = [await freePort(), await freePort()];
      // The first process creates the schema and the admin key; the others start together.
      const first = await startCkbProcess('api', shared, { port: firstPort });
      processes.push(first);
      const started = await Promise.all([
        startCkbProcess('api', shared, { port: secondPort }),
        startCkbProcess('worker', shared, { args: ['--concurrency', '2'] }),
        startCkbProcess('worker', shared, { args: ['--concurrency', '2'] }),
      ]);
      processes.push(...started);
      const [second, ...workers] = started as [CkbProcess, CkbProcess, CkbProcess];
      const key = await adminKeyOf(first);
      await expect(adminKeyOf(second)).rejects.toThrow(/no api_key/);
      if (nginx) {
        const port = await freePort();
        const replicas = [`127.0.0.1:${firstPort}`, `127.0.0.1:${secondPort}`];
        front = await startNginx(nginx, await readmeNginxConfig(replicas, port), port);
      }
      expect(await database.db.selectFrom('keys').select('id').execute()).toHaveLength(1);

      const app = (await call(first.url, key, 'POST', '/applications', { name: 'shared' })).body.id;
      const slow = (
        await call(first.url, key, 'POST', '/sources', {
          application_id: app,
          name: 'bell rock',
          type: 'url',
          content: `${site.origin}/slow`,
        })
      ).body;
      // A worker is fetching the page: find which one holds its job, and kill it mid-ingestion.
      await until('the page to be fetched', async () => (site.requests.includes('/slow') ? true : undefined));
      const job = await database.db
        .selectFrom('jobs')
        .select('lease_owner')
        .where('source_id', '=', slow.id)
        .executeTakeFirstOrThrow();
      const holder = workers.find((worker) => worker.home === leaseHome(job.lease_owner ?? ''))!;
      expect(holder).toBeDefined();
      const texts = (
        await call(second.url, key, 'POST', '/sources/batch', {
          sources: TEXTS.map((content, index) => ({
            application_id: app,
            name: ANIMALS[index],
            type: 'text',
            content,
          })),
        })
      ).body as { id: string }[];
      expect(texts).toHaveLength(TEXTS.length);
      await holder.kill('SIGKILL');
      await second.kill('SIGKILL');
      release();
      // The front keeps serving with one replica down: reads and writes alike go to the one left.
      if (front)
        for (let request = 0; request < 6; request++) {
          expect((await call(front.url, key, 'GET', `/sources/${slow.id}`)).status).toBe(200);
          const created = await call(front.url, key, 'POST', '/applications', {
            name: `through the front ${request}`,
          });
          expect(created.status).toBe(201);
          expect((await call(front.url, key, 'DELETE', `/applications/${created.body.id}`)).status).toBe(200);
        }

      // Every acknowledged source completes, on whichever worker is left, as seen through the first replica.
      const sources = await until('every source to complete', async () => {
        const listed = (await call(first.url, key, 'GET', `/applications/${app}/sources`)).body as any[];
        return listed.every((source) => source.embed_status === 'COMPLETED') ? listed : undefined;
      });
      expect(sources).toHaveLength(TEXTS.length + 1);
      const taken = (await call(first.url, key, 'GET', `/sources/${slow.id}`)).body;
      expect(taken).toMatchObject({ embed_status: 'COMPLETED', attempts: 2, last_error: LAPSED_LEASE });
      for (const [index, { id }] of texts.entries()) {
        const chunks = (await call(first.url, key, 'GET', `/sources/${id}/chunks`)).body as any[];
        const expected = chunkDocument({ pages: [{ page: 1, text: TEXTS[index]! }] });
        expect(chunks.map((chunk) => chunk.text)).toEqual(expected.map((chunk) => chunk.text));
      }
      // Each source was completed once, by one worker. (A worker logs a completion just after committing it, so
      // the last line may reach its log a moment after the API shows the source COMPLETED.)
      const completions = await until('every completion to be logged', async () => {
        const logged = (await Promise.all(workers.map((worker) => worker.log())))
          .flat()
          .filter((entry) => entry['message'] === 'source ingested')
          .map((entry) => entry['source_id'] as string);
        return logged.length >= sources.length ? logged : undefined;
      });
      expect(completions.toSorted()).toEqual(sources.map((source) => source.id).toSorted());

      // A worker stopped gracefully mid-ingestion hands its job back at once, for the next worker to take.
      const survivor = workers.find((worker) => worker !== holder)!;
      const again = (
        await call(first.url, key, 'POST', '/sources', {
          application_id: app,
          name: 'bell rock again',
          type: 'url',
          content: `${site.origin}/held`,
        })
      ).body;
      await until('the page to be fetched', async () => (site.requests.includes('/held') ? true : undefined));
      await survivor.kill('SIGTERM');
      expect(await survivor.exited).toBe(0);
      expect(
        await database.db
          .selectFrom('jobs')
          .select('lease_owner')
          .where('source_id', '=', again.id)
          .execute(),
      ).toEqual([{ lease_owner: null }]);
      expect((await call(first.url, key, 'GET', `/sources/${again.id}`)).body.embed_status).toBe('PENDING');
      processes.push(await startCkbProcess('worker', shared));
      releaseHeld();
      const redone = await until('the handed-back source to complete', async () => {
        const source = (await call(first.url, key, 'GET', `/sources/${again.id}`)).body;
        return source.embed_status === 'COMPLETED' ? source : undefined;
      });
      expect(redone).toMatchObject({ attempts: 2, last_error: '' });

      // A replica started in place of the killed one continues a conversation the first one began.
      const third = await startCkbProcess('api', shared);
      processes.push(third);
      const opened = (
        await call(first.url, key, 'POST', '/conversations', {
          application_id: app,
          message: 'What did the keeper of the Bell Rock do?',
        })
      ).body;
      // The two Bell Rock sources hold the same page, so either may be the one cited.
      const cited = opened.sources.map((source: { source_id: string }) => source.source_id);
      expect(cited.length).toBeGreaterThan(0);
      expect(cited.every((id: string) => [slow.id, again.id].includes(id))).toBe(true);
      const continued = await call(third.url, key, 'POST', '/conversations', {
        conversation_id: opened.conversation_id,
        message: 'and when did he light the lamp?',
      });
      expect(continued.status).toBe(200);
      const conversation = (await call(first.url, key, 'GET', `/conversations/${opened.conversation_id}`))
        .body;
      expect(conversation.messages.map((message: { content: string }) => message.content)).toEqual([
        'What did the keeper of the Bell Rock do?',
        opened.message,
        'and when did he light the lamp?',
        continued.body.message,
      ]);

      // A delete on one replica is invisible on the other at once, searches included.
      const search = (url: string) =>
        call(url, key, 'POST', `/applications/${app}/search`, { query: 'quokka', limit: 10 });
      expect((await search(first.url)).body[0]).toMatchObject({ source_id: texts[0]!.id });
      expect((await call(third.url, key, 'DELETE', `/sources/${texts[0]!.id}`)).status).toBe(200);
      expect((await call(first.url, key, 'GET', `/sources/${texts[0]!.id}`)).status).toBe(404);
      const after = (await search(first.url)).body as { source_id: string }[];
      expect(after.map((hit) => hit.source_id)).not.toContain(texts[0]!.id);

      const health = await call(first.url, key, 'GET', '/health');
      expect(health.body).toMatchObject({
        status: 'ok',
        role: 'api',
        database: { status: 'ok', kind: 'postgres' },
        queue: { waiting: 0, leased: 0, failed: 0 },
      });

      // Stopped gracefully, the processes leave no job, and LanceDB no chunk that is not live.
      await stopAll(processes);
      processes.length = 0;
      await writeFile(join(reader, 'config.json'), JSON.stringify({ database_url: location.url }));
      const storage = await readStorage(reader, join(shared.directory, 'db'));
      expect(storage.records.get('jobs')).toEqual([]);
      expect(storageProblems(storage)).toEqual([]);
    } finally {
      await front?.stop();
      await stopAll(processes, shared);
      await database.close();
      await site.close();
      await rm(reader, { recursive: true, force: true });
    }
  },
);
