import { rm } from 'node:fs/promises';
import { expect, test } from 'vitest';
import { type DaemonProcess, spawnDaemon } from '../support/daemon-process.ts';
import { newHome, testDatabaseKind } from '../support/home.ts';
import { prose } from '../support/prose.ts';
import { readStorage, storageProblems } from '../support/storage.ts';

const SOURCES = Array.from({ length: 12 }, (_, index) => ({
  name: `doc-${index}`,
  // About 3,400 chunks (of 512 tokens) in all, so they are committed in more than one group (of 2,000 rows) and a kill finds
  // some sources COMPLETED and others still in flight.
  content: prose(index, 2_800),
}));

async function waitAllDone(daemon: DaemonProcess, timeoutMs = 60_000): Promise<any[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await daemon.call('GET', '/sources');
    if (
      body.every(
        (source: { embed_status: string }) =>
          source.embed_status === 'COMPLETED' || source.embed_status === 'FAILED',
      )
    ) {
      return body;
    }
    if (Date.now() > deadline) throw new Error('sources still pending');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function chunkTexts(daemon: DaemonProcess, sourceId: string): Promise<string[]> {
  const { body } = await daemon.call('GET', `/sources/${sourceId}/chunks`);
  expect(body.map((chunk: { index: number }) => chunk.index)).toEqual(
    body.map((_: unknown, index: number) => index),
  );
  return body.map((chunk: { text: string }) => chunk.text);
}

test('a daemon killed with SIGKILL mid-ingestion resumes and converges to a clean run’s chunks', async () => {
  const cleanHome = await newHome();
  const crashHome = await newHome();
  try {
    const clean = await spawnDaemon(cleanHome);
    const cleanApp = (await clean.call('POST', '/applications', { name: 'clean' })).body.id;
    for (const source of SOURCES)
      await clean.call('POST', '/sources', { application_id: cleanApp, type: 'text', ...source });
    const expected = new Map<string, string[]>();
    for (const source of await waitAllDone(clean))
      expected.set(source.name, await chunkTexts(clean, source.id));
    await clean.kill('SIGTERM');

    let crashing = await spawnDaemon(crashHome);
    const app = (await crashing.call('POST', '/applications', { name: 'crash' })).body.id;
    for (const source of SOURCES)
      await crashing.call('POST', '/sources', { application_id: app, type: 'text', ...source });
    // Kill once some sources are done and others are still in flight.
    let statuses: string[] = [];
    while (!statuses.includes('COMPLETED')) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      statuses = (await crashing.call('GET', '/sources')).body.map(
        (source: { embed_status: string }) => source.embed_status,
      );
    }
    await crashing.kill('SIGKILL');
    expect(statuses.some((status) => status !== 'COMPLETED')).toBe(true);

    crashing = await spawnDaemon(crashHome);
    const sources = await waitAllDone(crashing);
    expect(sources).toHaveLength(SOURCES.length);
    for (const source of sources) {
      expect(source.embed_status).toBe('COMPLETED');
      expect(await chunkTexts(crashing, source.id)).toEqual(expected.get(source.name));
    }
    await crashing.kill('SIGTERM');
  } finally {
    await rm(cleanHome, { recursive: true, force: true });
    await rm(crashHome, { recursive: true, force: true });
  }
});

test('a daemon killed with SIGKILL while replacing a source holds the old version or the new one, whole, after restart', async () => {
  const home = await newHome();
  let daemon = await spawnDaemon(home);
  try {
    const app = (await daemon.call('POST', '/applications', { name: 'replace' })).body.id;
    const { body: created } = await daemon.call('POST', '/sources', {
      application_id: app,
      type: 'text',
      name: 'manual',
      content: prose(100, 1_200),
    });
    let [source] = await waitAllDone(daemon);
    expect(source.embed_status).toBe('COMPLETED');
    let previous = await chunkTexts(daemon, created.id);
    // Killed as the new version starts, half-way, and about when it is stored. On PostgreSQL, which other
    // processes may share, a killed daemon's lease lapses (30 s) before its job is taken again: once is enough.
    const killAfterMs = testDatabaseKind() === 'postgres' ? [0] : [0, 150, 400];
    let interrupted = 0;
    for (const [round, delayMs] of killAfterMs.entries()) {
      const content = prose(200 + round, 1_200);
      expect((await daemon.call('PUT', `/sources/${created.id}`, { content })).status).toBe(200);
      while ((await daemon.call('GET', `/sources/${created.id}`)).body.embed_status === 'PENDING')
        await new Promise((resolve) => setTimeout(resolve, 5));
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      await daemon.kill('SIGKILL');

      daemon = await spawnDaemon(home);
      const during = await chunkTexts(daemon, created.id);
      if ((await daemon.call('GET', `/sources/${created.id}`)).body.embed_status !== 'COMPLETED')
        interrupted += 1;
      [source] = await waitAllDone(daemon);
      expect(source.embed_status).toBe('COMPLETED');
      const replaced = await chunkTexts(daemon, created.id);
      expect(replaced.join('\n')).toContain(`Section ${200 + round}.0:`);
      expect([previous, replaced], `round ${round}: the chunks after the restart`).toContainEqual(during);
      expect(source.chunks).toBe(replaced.length);
      previous = replaced;
    }
    expect(interrupted, 'replacements the kill cut short').toBeGreaterThan(0);
    await daemon.kill('SIGTERM');
    expect(storageProblems(await readStorage(home))).toEqual([]);
  } finally {
    if (daemon.child.exitCode === null) await daemon.kill('SIGKILL');
    await rm(home, { recursive: true, force: true });
  }
}, 120_000);
