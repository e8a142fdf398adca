import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { startTestDaemon, waitForSource } from '../support/daemon.ts';
import { startFakeOpenAI } from '../support/fake-openai.ts';
import { newHome } from '../support/home.ts';

test('switching the embedder re-embeds every source instead of mixing vector spaces', async () => {
  const home = await newHome();
  const vendor = await startFakeOpenAI({ embeddingDimensions: 64 });
  try {
    const offline = await startTestDaemon({ home });
    const app = (await offline.call('POST', '/applications', { name: 'switch' })).body.id;
    const { body: created } = await offline.call('POST', '/sources', {
      application_id: app,
      name: 'otters',
      type: 'text',
      content: 'Sea otters hold hands while they sleep so they do not drift apart.',
    });
    const before = await waitForSource(offline, created.id);
    await offline.close();

    const provider = await startTestDaemon({
      home,
      config: { embeddings: { base_url: vendor.baseUrl, model: 'fake-embedding', api_key_env: 'FAKE_KEY' } },
      env: { FAKE_KEY: 'sk-fake' },
    });
    try {
      const after = await waitForSource(provider, created.id);
      expect(after).toMatchObject({ embed_status: 'COMPLETED', chunks: before.chunks });
      const embedded = vendor.requests.filter((request) => request.path.endsWith('/embeddings'));
      expect(JSON.stringify(embedded.map((request) => request.body))).toContain('Sea otters hold hands');
      const hits = (await provider.call('POST', `/applications/${app}/search`, { query: 'otters sleeping' }))
        .body;
      expect(hits[0]).toMatchObject({ source: 'otters', source_id: created.id });
      const tables = await readdir(join(home, 'data', 'db'));
      expect(tables.filter((table) => table.startsWith('chunks_'))).toHaveLength(1);
    } finally {
      await provider.close();
    }
  } finally {
    await vendor.close();
    await rm(home, { recursive: true, force: true });
  }
});
