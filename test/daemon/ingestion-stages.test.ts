import { rm } from 'node:fs/promises';
import { expect, test } from 'vitest';
import { chunkDocument } from '../../daemon/ingest/chunk.ts';
import { startTestDaemon, type TestDaemon, waitForSource } from '../support/daemon.ts';
import { newHome } from '../support/home.ts';
import { prose } from '../support/prose.ts';
import { readStorage, storageProblems } from '../support/storage.ts';

// About 3,200 chunks in all (of 512 tokens): more than one commit group (2,000 rows), so a stop finds sources at every stage.
const TEXTS = Array.from({ length: 40 }, (_, index) => prose(100 + index, 800));

async function addSources(daemon: TestDaemon, application: string): Promise<string[]> {
  const created = await Promise.all(
    TEXTS.map((content, index) =>
      daemon.call('POST', '/sources', {
        application_id: application,
        type: 'text',
        name: `doc-${index}`,
        content,
      }),
    ),
  );
  return created.map((response) => response.body.id);
}

async function chunkTexts(daemon: TestDaemon, id: string): Promise<string[]> {
  return (await daemon.call('GET', `/sources/${id}/chunks`)).body.map(
    (chunk: { text: string }) => chunk.text,
  );
}

test('a stop while sources are prepared or committed writes none COMPLETED without its chunks; all resume', async () => {
  const home = await newHome();
  const daemon = await startTestDaemon({ home });
  try {
    const application = (await daemon.call('POST', '/applications', { name: 'stages' })).body.id;
    const ids = await addSources(daemon, application);
    let statuses: string[] = [];
    while (!statuses.includes('COMPLETED')) {
      statuses = (await daemon.call('GET', '/sources')).body.map((source: any) => source.embed_status);
    }
    await daemon.restart();
    expect(statuses.some((status) => status !== 'COMPLETED')).toBe(true);
    for (const source of (await daemon.call('GET', '/sources')).body) {
      if (source.embed_status === 'COMPLETED')
        expect(await chunkTexts(daemon, source.id)).toHaveLength(source.chunks);
    }
    for (const [index, id] of ids.entries()) {
      expect(await waitForSource(daemon, id)).toMatchObject({ embed_status: 'COMPLETED' });
      const expected = chunkDocument({ pages: [{ page: 1, text: TEXTS[index]! }] }).map(
        (chunk) => chunk.text,
      );
      expect(await chunkTexts(daemon, id)).toEqual(expected);
    }
  } finally {
    await daemon.close();
    await rm(home, { recursive: true, force: true });
  }
});

test('sources deleted while they are prepared or wait for their commit leave no chunks behind', async () => {
  const home = await newHome();
  const daemon = await startTestDaemon({ home });
  try {
    const application = (await daemon.call('POST', '/applications', { name: 'stages' })).body.id;
    const ids = await addSources(daemon, application);
    const doomed = ids.filter((_, index) => index % 2 === 0);
    for (const id of doomed) {
      expect((await daemon.call('DELETE', `/sources/${id}`)).status).toBe(200);
    }
    for (const id of ids.filter((_, index) => index % 2 === 1)) {
      expect(await waitForSource(daemon, id)).toMatchObject({ embed_status: 'COMPLETED' });
    }
    await daemon.daemon.close();
    const storage = await readStorage(home);
    expect(storageProblems(storage)).toEqual([]);
    for (const id of doomed) expect(storage.chunksBySource.has(id)).toBe(false);
  } finally {
    await daemon.close().catch(() => {});
    await rm(home, { recursive: true, force: true });
  }
});
