import { expect, test } from 'vitest';
import { startTestDaemon, waitForSource } from '../support/daemon.ts';
import { startServer } from '../support/static-server.ts';
import { recordFigures } from './support.ts';

test('slow-drip and never-ending responses end FAILED within the fetch time limit; the daemon keeps serving', async () => {
  const timers = new Set<NodeJS.Timeout>();
  const server = await startServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.write('<html><body><p>');
    // One byte at a time: every read succeeds, so only a limit on the whole exchange stops it.
    const interval = request.url === '/drip' ? 500 : 50;
    const timer = setInterval(() => response.write('a'), interval);
    timers.add(timer);
    response.on('close', () => clearInterval(timer));
  });
  const daemon = await startTestDaemon({ config: { block_private_addresses: false } });
  try {
    const application = (await daemon.call('POST', '/applications', { name: 'slow' })).body.id;
    const started = performance.now();
    const created = await Promise.all(
      ['/drip', '/trickle'].map((path) =>
        daemon.call('POST', '/sources', {
          application_id: application,
          type: 'url',
          name: path,
          content: `${server.origin}${path}`,
        }),
      ),
    );
    const ordinary = await daemon.call('POST', '/sources', {
      application_id: application,
      type: 'text',
      name: 'ordinary',
      content: 'Other work goes on while a server drips.',
    });
    expect((await waitForSource(daemon, ordinary.body.id)).embed_status).toBe('COMPLETED');
    const ordinarySeconds = (performance.now() - started) / 1_000;
    const outcomes = await Promise.all(created.map(({ body }) => waitForSource(daemon, body.id, 90_000)));
    const seconds = (performance.now() - started) / 1_000;
    for (const source of outcomes) {
      expect(source.embed_status, source.name).toBe('FAILED');
      expect(source.embed_status_message, source.name).toMatch(/within \d+ ms/);
    }
    await recordFigures('slow_responses', {
      cases: outcomes.map((source) => ({
        name: source.name,
        status: source.embed_status,
        message: source.embed_status_message,
      })),
      seconds_until_failed: Math.round(seconds * 10) / 10,
      ordinary_source_completed_after_seconds: Math.round(ordinarySeconds * 10) / 10,
    });
    expect(seconds).toBeLessThan(60);
    expect(ordinarySeconds, 'a text source waits for no slow server').toBeLessThan(10);
  } finally {
    for (const timer of timers) clearInterval(timer);
    await daemon.close();
    await server.close();
  }
});
