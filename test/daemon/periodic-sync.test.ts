import { expect, test } from 'vitest';
import { startTestDaemon, waitForSource } from '../support/daemon.ts';
import { serve } from '../support/http-server.ts';

/** The daemon's clock, moved by the test: a periodic sync comes due without waiting an hour. */
function movableClock() {
  let now = Date.parse('2026-11-24T09:00:00.000Z');
  return {
    now: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
  };
}

test('a web source with a sync interval is read again once it is due, by the job queue, until the interval is cleared', async () => {
  let requests = 0;
  let text = 'The harbour light is lit at dusk.';
  const site = await serve((_request, response) => {
    requests += 1;
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<html><body><main><h1>Light</h1><p>${text}</p></main></body></html>`);
  });
  const clock = movableClock();
  const daemon = await startTestDaemon({ clock });
  const { ingestion } = daemon.daemon.services;
  try {
    const app = (await daemon.call('POST', '/applications', { name: 'periodic' })).body.id;
    const { status, body: created } = await daemon.call('POST', '/sources', {
      application_id: app,
      type: 'url',
      name: 'light',
      content: `${site.origin}/light.html`,
      sync_interval: 3600,
    });
    expect(status).toBe(201);
    expect(created.sync_interval).toBe(3600);
    await waitForSource(daemon, created.id);
    // The next sync waits in the queue, not due: the queue is idle, and nothing is read before it is due.
    await ingestion.idle();
    expect(requests).toBe(1);
    clock.advance(3_599_000);
    ingestion.wake();
    await ingestion.idle();
    expect(requests).toBe(1);

    text = 'The harbour light is lit at dusk and put out at dawn.';
    clock.advance(2_000);
    ingestion.wake();
    await until(() => requests === 2);
    const synced = await waitForSource(daemon, created.id);
    expect(synced.embed_status).toBe('COMPLETED');
    const chunks = (await daemon.call('GET', `/sources/${created.id}/chunks`)).body;
    expect(chunks[0].text).toContain('put out at dawn');

    // And again an interval later.
    clock.advance(3_601_000);
    ingestion.wake();
    await until(() => requests === 3);
    await waitForSource(daemon, created.id);
    await ingestion.idle();

    // Cleared: no more syncs, however long the daemon waits.
    const cleared = await daemon.call('PUT', `/sources/${created.id}`, { sync_interval: null });
    expect(cleared.body).toMatchObject({ sync_interval: null, embed_status: 'COMPLETED' });
    clock.advance(10 * 3_600_000);
    ingestion.wake();
    await ingestion.idle();
    expect(requests).toBe(3);

    // Set again on a source that has none: due an interval from now.
    await daemon.call('PUT', `/sources/${created.id}`, { sync_interval: 60 });
    clock.advance(61_000);
    ingestion.wake();
    await until(() => requests === 4);
    await waitForSource(daemon, created.id);

    // A sync asked for now brings the scheduled one forward rather than adding another.
    await ingestion.idle();
    await daemon.call('POST', `/sources/${created.id}/sync`);
    await until(() => requests === 5);
    await waitForSource(daemon, created.id);
    await ingestion.idle();
    clock.advance(30_000);
    ingestion.wake();
    await ingestion.idle();
    expect(requests).toBe(5);
  } finally {
    await daemon.close();
    await site.close();
  }
});

test('sync_interval is refused on text and file sources, and outside 60 s to 30 days', async () => {
  const daemon = await startTestDaemon();
  try {
    const app = (await daemon.call('POST', '/applications', { name: 'limits' })).body.id;
    const text = await daemon.call('POST', '/sources', {
      application_id: app,
      type: 'text',
      name: 'note',
      content: 'short',
      sync_interval: 3600,
    });
    expect(text.status).toBe(201);
    expect(text.body.sync_interval).toBeNull();
    for (const interval of [59, 31 * 24 * 3600, 1.5, '1h']) {
      const { status, body } = await daemon.call('POST', '/sources', {
        application_id: app,
        type: 'website',
        name: 'site',
        content: 'https://example.com/',
        sync_interval: interval,
      });
      expect(status).toBe(400);
      expect(body.error.param).toBe('sync_interval');
    }
    expect((await daemon.call('GET', `/applications/${app}/sources`)).body).toHaveLength(1);
  } finally {
    await daemon.close();
  }
});

async function until(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
