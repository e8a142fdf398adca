import { expect, test } from 'vitest';
import { startTestDaemon, waitForSource } from '../support/daemon.ts';
import { startFakeOpenAI } from '../support/fake-openai.ts';

test('an open reply stream carries ": ping" comments while the model is slow, and still ends with done', async () => {
  const vendor = await startFakeOpenAI({
    reply: () => ({ content: 'slow but sure', chunks: ['slow ', 'but ', 'sure'] }),
  });
  const daemon = await startTestDaemon({
    config: { models: { 'lm-4': { base_url: vendor.baseUrl, model: 'slow' } } },
    pingIntervalMs: 50,
  });
  try {
    const app = (await daemon.call('POST', '/applications', { name: 'pings', model: 'lm-4' })).body.id;
    const { body: source } = await daemon.call('POST', '/sources', {
      application_id: app,
      name: 'n',
      type: 'text',
      content: 'Snails are slow.',
    });
    await waitForSource(daemon, source.id);
    vendor.enqueue({ type: 'slow', chunkDelayMs: 150 });
    const response = await fetch(`${daemon.url}/conversations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${daemon.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ application_id: app, message: 'Are snails slow?', stream: true }),
    });
    const raw = await response.text();
    expect(raw.match(/^: ping$/gm)?.length ?? 0).toBeGreaterThanOrEqual(3);
    expect(raw).toMatch(/event: done\ndata: \{.*"message":"slow but sure"/);
  } finally {
    await daemon.close();
    await vendor.close();
  }
});
