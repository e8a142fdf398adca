import { request } from 'node:http';
import { expect, test } from 'vitest';
import { startTestDaemon, waitForSource } from '../support/daemon.ts';
import { startFakeOpenAI } from '../support/fake-openai.ts';

/** 5,000 deltas of 8 KB: 40 MB, far more than the sockets between vendor, daemon and client hold (about 10 MB here). */
const CHUNKS = 5_000;
const CHUNK = 'x'.repeat(8 * 1024);

test('a slow reader holds the model back: the daemon does not read the whole reply into memory meanwhile', async () => {
  const vendor = await startFakeOpenAI({
    reply: () => ({ content: CHUNK.repeat(CHUNKS), chunks: Array.from({ length: CHUNKS }, () => CHUNK) }),
  });
  const daemon = await startTestDaemon({
    config: { models: { 'lm-4': { base_url: vendor.baseUrl, model: 'large' } } },
  });
  try {
    const app = (await daemon.call('POST', '/applications', { name: 'slow reader', model: 'lm-4' })).body.id;
    const { body: source } = await daemon.call('POST', '/sources', {
      application_id: app,
      name: 'n',
      type: 'text',
      content: 'Large replies take long to read.',
    });
    await waitForSource(daemon, source.id);
    const body = JSON.stringify({ application_id: app, message: 'Say a lot.', stream: true });
    const received = await new Promise<{ bytes: number; writtenWhilePaused: number; done: boolean }>(
      (resolve, reject) => {
        const outgoing = request(`${daemon.url}/conversations`, {
          method: 'POST',
          headers: { authorization: `Bearer ${daemon.apiKey}`, 'content-type': 'application/json' },
        });
        outgoing.on('error', reject);
        outgoing.end(body);
        outgoing.on('response', (response) => {
          let bytes = 0;
          let carry = '';
          let done = false;
          let writtenWhilePaused = -1;
          response.once('data', () => {
            // Read nothing for a while, as a client on a slow link or a paused terminal does.
            response.pause();
            setTimeout(() => {
              writtenWhilePaused = vendor.chatRequests()[0]!.chunksWritten;
              response.resume();
            }, 1_500);
          });
          response.on('data', (data: Buffer) => {
            bytes += data.length;
            const window = carry + data.toString('latin1');
            done ||= window.includes('event: done\ndata: {"conversation_id"');
            carry = window.slice(-64);
          });
          response.on('end', () => resolve({ bytes, writtenWhilePaused, done }));
        });
      },
    );
    // Without back-pressure the daemon drained the vendor in a moment and held the 40 MB for the client.
    expect(received.writtenWhilePaused).toBeGreaterThan(0);
    expect(received.writtenWhilePaused).toBeLessThan(CHUNKS / 2);
    // Once the client reads again, the whole reply arrives, and ends with done.
    expect(received.bytes).toBeGreaterThan(CHUNKS * CHUNK.length);
    expect(received.done).toBe(true);
    expect(vendor.chatRequests()[0]!.chunksWritten).toBe(CHUNKS);
  } finally {
    await daemon.close();
    await vendor.close();
  }
});
