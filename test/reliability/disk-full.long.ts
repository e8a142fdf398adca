import { execFile, execFileSync } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { type DaemonProcess, spawnDaemon } from '../support/daemon-process.ts';
import { newHome, testDatabaseKind } from '../support/home.ts';
import { recordFigures, sleep } from './support.ts';

const run = promisify(execFile);

/**
 * The daemon's data directory on a small tmpfs of its own: a mount namespace (unshare, as the user's own root
 * in a user namespace), so no root is needed and nothing outside the test sees it. The test fills and frees
 * it from inside that namespace with nsenter.
 */
const MOUNT = 'mkdir -p "$0/data" && mount -t tmpfs -o size=32m,mode=0700 tmpfs "$0/data" && exec "$@"';

function namespacesWork(): boolean {
  try {
    execFileSync('unshare', ['--user', '--map-root-user', '--mount', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const available = testDatabaseKind() === 'sqlite' && namespacesWork();
if (!available && testDatabaseKind() === 'sqlite')
  console.log(
    'skipped the full-disk test: this machine cannot make mount namespaces (unshare --user --mount)',
  );

async function inNamespace(daemon: DaemonProcess, script: string): Promise<void> {
  await run('nsenter', [
    '-t',
    String(daemon.child.pid),
    '-U',
    '-m',
    '--preserve-credentials',
    'sh',
    '-c',
    script,
  ]);
}

test.runIf(available)(
  'a full disk fails writes with 507 and a clear message, changes nothing, and the daemon goes on once space is freed',
  async () => {
    const home = await newHome();
    await mkdir(join(home, 'data'), { recursive: true });
    const prefix = ['unshare', '--user', '--map-root-user', '--mount', 'sh', '-c', MOUNT, home];
    const daemon = await spawnDaemon(home, { prefix });
    try {
      const application = (await daemon.call('POST', '/applications', { name: 'before' })).body.id;
      const first = await daemon.call('POST', '/sources', {
        application_id: application,
        type: 'text',
        name: 'kept',
        content: 'The lighthouse keeper logs the weather at dawn.',
      });
      expect(first.status).toBe(201);
      for (let waited = 0; waited < 100; waited++) {
        if ((await daemon.call('GET', `/sources/${first.body.id}`)).body.embed_status === 'COMPLETED') break;
        await sleep(100);
      }

      // Fill every byte left.
      await inNamespace(daemon, `dd if=/dev/zero of="${home}/data/ballast" bs=64k 2>/dev/null || true`);
      const refused: Record<string, number> = {};
      for (const [name, method, path, body] of [
        ['create an application', 'POST', '/applications', { name: 'while full' }],
        [
          'add a source',
          'POST',
          '/sources',
          { application_id: application, type: 'text', name: 'lost', content: 'Nothing should keep this.' },
        ],
        ['rename an application', 'PUT', `/applications/${application}`, { name: 'renamed while full' }],
        [
          'start a conversation',
          'POST',
          '/conversations',
          { application_id: application, message: 'weather?' },
        ],
      ] as const) {
        const response = await daemon.call(method, path, body);
        refused[name] = response.status;
        expect(response.status, name).toBe(507);
        expect(response.body.error).toMatchObject({ type: 'insufficient_storage' });
        expect(response.body.error.message).toContain('disk is full; nothing was changed');
      }
      // Reads go on, and show that nothing changed.
      const applications = (await daemon.call('GET', '/applications')).body;
      expect(applications.map((app: { name: string }) => app.name)).toEqual(['before']);
      expect(
        (await daemon.call('GET', '/sources')).body.map((source: { name: string }) => source.name),
      ).toEqual(['kept']);
      expect((await daemon.call('GET', '/conversations')).body).toEqual([]);
      const hits = (await daemon.call('POST', `/applications/${application}/search`, { query: 'lighthouse' }))
        .body;
      expect(hits[0]?.source).toBe('kept');

      // Space freed: writes work again, with no restart.
      await inNamespace(daemon, `rm -f "${home}/data/ballast"`);
      expect((await daemon.call('POST', '/applications', { name: 'after' })).status).toBe(201);
      const later = await daemon.call('POST', '/sources', {
        application_id: application,
        type: 'text',
        name: 'later',
        content: 'The foghorn sounds every thirty seconds in fog.',
      });
      expect(later.status).toBe(201);
      let status = '';
      for (let waited = 0; waited < 100 && status !== 'COMPLETED'; waited++) {
        status = (await daemon.call('GET', `/sources/${later.body.id}`)).body.embed_status;
        await sleep(100);
      }
      expect(status).toBe('COMPLETED');
      const found = (await daemon.call('POST', `/applications/${application}/search`, { query: 'foghorn' }))
        .body;
      expect(found[0]?.source).toBe('later');
      await recordFigures('full_disk', { refused_with_507: refused, recovered_without_restart: true });
    } finally {
      await daemon.kill('SIGKILL').catch(() => {});
      await rm(home, { recursive: true, force: true });
    }
  },
);
