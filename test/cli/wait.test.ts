import { createServer } from 'node:http';
import { expect, test } from 'vitest';
import { ExitError } from '../../src/cli/exit.ts';
import { createOutput } from '../../src/cli/output.ts';
import { waitForSources } from '../../src/cli/wait.ts';
import { createClient } from '../../src/client/index.ts';
import { startTestDaemon } from '../support/daemon.ts';

test('a wait on which no source moves gives up with a message saying ingestion goes on, instead of spinning for ever', async () => {
  // A page that never answers: its source stays PROCESSING until the fetch's own time limit, far off.
  const hang = createServer(() => {});
  await new Promise<void>((resolve) => hang.listen(0, '127.0.0.1', resolve));
  const daemon = await startTestDaemon({ config: { block_private_addresses: false } });
  try {
    const { port } = hang.address() as { port: number };
    const application = (await daemon.call('POST', '/applications', { name: 'stalled' })).body.id;
    const sources = await Promise.all(
      ['a', 'b'].map(
        async (name) =>
          (
            await daemon.call('POST', '/sources', {
              application_id: application,
              type: 'url',
              name,
              content: `http://127.0.0.1:${port}/${name}.html`,
            })
          ).body.id as string,
      ),
    );
    const client = createClient({ url: daemon.url, apiKey: daemon.apiKey });
    const output = createOutput({ quiet: true });
    const started = Date.now();
    const waiting = waitForSources(client, application, sources, output, {
      reattach: `--app ${application}`,
      stallMs: 1_500,
    });
    const error = await waiting.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ExitError);
    expect((error as Error).message).toMatch(
      /^no source moved in 1\.5 s, so ckb stopped waiting; ingestion goes on/,
    );
    expect((error as Error).message).toContain(`ckb source wait --app ${application}`);
    expect(Date.now() - started).toBeLessThan(10_000);
  } finally {
    await daemon.close();
    hang.close();
  }
});
