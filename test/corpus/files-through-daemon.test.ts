import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { corpusOrSkip } from '../support/corpus.ts';
import { startTestDaemon, type TestDaemon, waitForSource } from '../support/daemon.ts';

interface ManifestEntry {
  path: string;
  kind: 'good' | 'encrypted' | 'corrupt' | 'empty' | 'mislabelled';
  phrases?: { text: string; page?: number | null }[];
}

const corpus = corpusOrSkip('the corpus files through the daemon (files/MANIFEST.json)');
const manifest: ManifestEntry[] = corpus
  ? JSON.parse(await readFile(join(corpus, 'files/MANIFEST.json'), 'utf8'))
  : [];
const good = manifest.filter((entry) => entry.kind === 'good');
const bad = manifest.filter((entry) => entry.kind !== 'good');

/** The MANIFEST's phrases match text after whitespace normalisation. */
const normalise = (text: string) => text.replace(/\s+/g, ' ').trim();

describe.skipIf(corpus === undefined)('the real corpus through the daemon (../shared/corpus/files)', () => {
  let daemon: TestDaemon;
  let application: string;
  const sources = new Map<string, any>();

  async function addFile(path: string): Promise<string> {
    const name = basename(path);
    const { body: presigned } = await daemon.call(
      'GET',
      `/files/presigned-url?name=${encodeURIComponent(name)}`,
    );
    const upload = await fetch(presigned.presigned_url, {
      method: 'PUT',
      body: await readFile(join(corpus ?? '', 'files', path)),
    });
    expect(upload.status).toBe(200);
    const { status, body } = await daemon.call('POST', '/sources', {
      application_id: application,
      name,
      type: 'file',
      content: presigned.file_id,
    });
    expect(status).toBe(201);
    return body.id;
  }

  beforeAll(async () => {
    daemon = await startTestDaemon();
    application = (await daemon.call('POST', '/applications', { name: 'corpus' })).body.id;
    const ids = await Promise.all(
      manifest.map(async (entry) => [entry.path, await addFile(entry.path)] as const),
    );
    for (const [path, id] of ids) sources.set(path, await waitForSource(daemon, id, 180_000));
  }, 240_000);
  afterAll(() => daemon.close());

  test.each(good.map((entry) => [entry.path, entry] as const))(
    '%s completes and its phrases are in its chunks, on their pages',
    async (path, entry) => {
      const source = sources.get(path);
      expect(source.embed_status, source.embed_status_message).toBe('COMPLETED');
      const { body: chunks } = await daemon.call('GET', `/sources/${source.id}/chunks`);
      expect(chunks.length).toBe(source.chunks);
      for (const phrase of entry.phrases ?? []) {
        const onPage = chunks.filter((chunk: { page: number }) => !phrase.page || chunk.page === phrase.page);
        const found =
          onPage.some((chunk: { text: string }) => normalise(chunk.text).includes(phrase.text)) ||
          normalise(onPage.map((chunk: { text: string }) => chunk.text).join(' ')).includes(phrase.text);
        expect(found, `"${phrase.text}" on page ${phrase.page ?? 'any'}`).toBe(true);
      }
    },
  );

  test.each(bad.map((entry) => [entry.path, entry.kind] as const))(
    '%s (%s) fails with a message naming the problem',
    async (path, kind) => {
      const source = sources.get(path);
      const expected: Record<string, RegExp> = {
        encrypted: /encrypted|password/i,
        corrupt: /corrupt|damaged|truncated|unreadable|could not be read/i,
        empty: /empty/i,
        mislabelled: /not a|really|HTML/i,
      };
      if (path === 'txt/rfc2822.txt') {
        // Chosen behaviour: a .txt that is really HTML is read as HTML, with none of its markup left.
        expect(source.embed_status).toBe('COMPLETED');
        const { body: chunks } = await daemon.call('GET', `/sources/${source.id}/chunks`);
        expect(chunks.map((chunk: { text: string }) => chunk.text).join(' ')).not.toMatch(
          /<\/?(html|body|div|p)\b/i,
        );
        return;
      }
      expect(source.embed_status).toBe('FAILED');
      expect(source.embed_status_message).toContain(basename(path));
      expect(source.embed_status_message).toMatch(expected[kind]!);
    },
  );

  test('the daemon stays healthy and searchable after the bad files', async () => {
    expect((await daemon.call('GET', '/health')).status).toBe(200);
    const hits = (
      await daemon.call('POST', `/applications/${application}/search`, {
        query: 'Apache Tika content analysis toolkit',
      })
    ).body;
    expect(hits[0].source).toMatch(/\.(pdf|docx?|html|txt|md)$/);
  });
});
