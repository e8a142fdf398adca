import { rm } from 'node:fs/promises';
import { expect, test } from 'vitest';
import { startTestDaemon } from '../support/daemon.ts';
import { newHome } from '../support/home.ts';
import { readStorage, storageProblems } from '../support/storage.ts';
import { sleep } from './support.ts';

test('sources and turns racing an application delete leave no orphans, in the API or on disk', async () => {
  const home = await newHome();
  const daemon = await startTestDaemon({ home });
  try {
    for (let round = 0; round < 8; round++) {
      const application = (await daemon.call('POST', '/applications', { name: `race-${round}` })).body.id;
      await daemon.call('POST', '/sources', {
        application_id: application,
        type: 'text',
        name: 'notes',
        content: 'storm lantern keeper '.repeat(200),
      });
      const racing = [
        ...Array.from({ length: 4 }, () =>
          daemon.call('POST', '/conversations', { application_id: application, message: 'storm?' }),
        ),
        ...Array.from({ length: 4 }, () =>
          daemon.call('POST', '/sources', {
            application_id: application,
            type: 'text',
            name: 'late',
            content: 'late text',
          }),
        ),
      ];
      await sleep(round * 4);
      const deleted = await daemon.call('DELETE', `/applications/${application}`);
      expect(deleted.status).toBe(200);
      for (const response of await Promise.all(racing)) expect([200, 201, 404]).toContain(response.status);
      const applications = new Set(
        (await daemon.call('GET', '/applications')).body.map((item: any) => item.id),
      );
      for (const path of ['/sources', '/conversations']) {
        const orphans = (await daemon.call('GET', path)).body.filter(
          (item: any) => !applications.has(item.application_id),
        );
        expect(orphans, `${path} in round ${round}`).toEqual([]);
      }
    }
    await daemon.daemon.close();
    expect(storageProblems(await readStorage(home))).toEqual([]);
  } finally {
    await daemon.close().catch(() => {});
    await rm(home, { recursive: true, force: true });
  }
});
