import { expect, test } from 'vitest';
import { addTextSource, startTestDaemon, waitForSource } from '../support/daemon.ts';
import { prose } from '../support/prose.ts';

/** One version of the log: every paragraph names its edition, and shares the words the questions ask about. */
function edition(number: number): string {
  return Array.from(
    { length: 6 },
    (_, paragraph) =>
      `Edition ${number} of the lighthouse keeper logbook, entry ${paragraph}: ${prose(number * 10 + paragraph, 1)}`,
  ).join('\n\n');
}

const editionOf = (text: string) => Number(/Edition (\d+) of the lighthouse/.exec(text)?.[1]);

test('searches and conversations racing replacements see the old version or the new, never both, never neither', async () => {
  const daemon = await startTestDaemon();
  try {
    const app = (await daemon.call('POST', '/applications', { name: 'race' })).body.id;
    const created = await addTextSource(daemon, app, 'logbook', edition(1));
    const seen: number[][] = [];
    const replies: number[] = [];
    for (let version = 2; version <= 9; version++) {
      let replaced = false;
      const searching = (async () => {
        while (!replaced) {
          const { body } = await daemon.call('POST', `/applications/${app}/search`, {
            query: 'lighthouse keeper logbook entry',
            limit: 8,
          });
          seen.push(body.map((hit: { text: string }) => editionOf(hit.text)));
        }
      })();
      const conversing = (async () => {
        while (!replaced) {
          const { body } = await daemon.call('POST', '/conversations', {
            application_id: app,
            message: 'What does the lighthouse keeper logbook say?',
          });
          replies.push(body.sources.length);
        }
      })();
      const { status } = await daemon.call('PUT', `/sources/${created.id}`, { content: edition(version) });
      expect(status).toBe(200);
      const done = await waitForSource(daemon, created.id);
      expect(done.embed_status).toBe('COMPLETED');
      replaced = true;
      await Promise.all([searching, conversing]);
      const { body: after } = await daemon.call('POST', `/applications/${app}/search`, {
        query: 'lighthouse keeper logbook entry',
      });
      expect(after.map((hit: { text: string }) => editionOf(hit.text))).toEqual(after.map(() => version));
    }
    expect(seen.length).toBeGreaterThan(8);
    for (const editions of seen) {
      expect(editions.length).toBeGreaterThan(0);
      expect(new Set(editions).size, `editions seen together: ${editions}`).toBe(1);
    }
    expect(replies.every((count) => count > 0)).toBe(true);
  } finally {
    await daemon.close();
  }
});
