import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { startTestDaemon } from '../support/daemon.ts';
import { recordFigures, sleep } from './support.ts';

const UPDATES = 10_000;
/** The daemon's maintenance runs every minute and drops versions older than a minute: two runs at most. */
const SETTLE_MS = 150_000;

async function directoryBytes(directory: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(directory, { recursive: true, withFileTypes: true })) {
    if (entry.isFile())
      total += (await stat(join(entry.parentPath, entry.name)).catch(() => ({ size: 0 }))).size;
  }
  return total;
}

test(`disk usage stays bounded after ${UPDATES} small updates (compaction works)`, async () => {
  const daemon = await startTestDaemon();
  try {
    const dataDir = join(daemon.home, 'data');
    const application = (await daemon.call('POST', '/applications', { name: 'busy' })).body.id;
    const conversation = (
      await daemon.call('POST', '/conversations', { application_id: application, message: 'hello?' })
    ).body.conversation_id;
    const baseline = await directoryBytes(dataDir);
    const started = performance.now();
    let next = 0;
    const worker = async () => {
      while (next < UPDATES) {
        const update = next++;
        const response =
          update % 2
            ? await daemon.call('PUT', `/applications/${application}`, { description: `revision ${update}` })
            : await daemon.call('PUT', `/conversations/${conversation}`, { title: `title ${update}` });
        expect(response.status).toBe(200);
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    const updateSeconds = (performance.now() - started) / 1_000;
    const peak = await directoryBytes(dataDir);
    const deadline = Date.now() + SETTLE_MS;
    let settled = peak;
    while (Date.now() < deadline) {
      await sleep(5_000);
      settled = await directoryBytes(dataDir);
      if (settled < baseline + 1024 * 1024) break;
    }
    const final = await daemon.call('GET', `/applications/${application}`);
    expect(final.body.description).toMatch(/^revision \d+$/);
    await recordFigures('disk_after_updates', {
      updates: UPDATES,
      updates_per_second: Math.round(UPDATES / updateSeconds),
      data_dir_bytes: { before: baseline, after_updates: peak, after_maintenance: settled },
    });
    expect(settled).toBeLessThan(baseline + 1024 * 1024);
  } finally {
    await daemon.close();
  }
}, 420_000);
