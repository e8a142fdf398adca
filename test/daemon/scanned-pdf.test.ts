import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runDaemon } from '../../daemon/main.ts';
import { startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { buildScannedPdf, renderScan } from '../support/scans.ts';

const COVER = 'Quarterly report of the Eastness harbour board, prepared for the members of the board.';
const FACT = [
  'The breakwater at Eastness was rebuilt in granite after the storm of March, at a cost of eighty thousand pounds.',
  'Work on the north pier resumes in the spring.',
];

/** Uploads bytes through a pre-signed address and adds them as a file source; returns the source's id. */
async function addFile(daemon: TestDaemon, applicationId: string, name: string, bytes: Uint8Array) {
  const fileId = await daemon.upload(name, bytes);
  const source = await daemon.call('POST', '/sources', {
    application_id: applicationId,
    name,
    type: 'file',
    content: fileId,
  });
  expect(source.status, JSON.stringify(source.body)).toBe(201);
  return source.body.id as string;
}

/** Polls a source until it settles, keeping every message it showed while processing. */
async function settle(daemon: TestDaemon, id: string): Promise<{ source: any; messages: string[] }> {
  const messages: string[] = [];
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { body } = await daemon.call('GET', `/sources/${id}`);
    if (body.embed_status === 'PROCESSING' && body.embed_status_message)
      messages.push(body.embed_status_message);
    if (body.embed_status === 'COMPLETED' || body.embed_status === 'FAILED')
      return { source: body, messages };
    if (Date.now() > deadline) throw new Error(`source ${id} still ${body.embed_status} after 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('a scanned PDF through the daemon', () => {
  let daemon: TestDaemon;
  let applicationId: string;
  beforeAll(async () => {
    daemon = await startTestDaemon();
    applicationId = (await daemon.call('POST', '/applications', { name: 'harbour' })).body.id;
  });
  afterAll(() => daemon.close());

  test('a fact on a scanned page is found and cited with its page, and recognition shows its progress', async () => {
    const pdf = await buildScannedPdf([
      { text: COVER },
      { scan: renderScan(FACT) },
      { scan: renderScan(['Minutes of the meeting are kept by the secretary of the board.']) },
    ]);
    const id = await addFile(daemon, applicationId, 'board-report.pdf', pdf);
    const { source, messages } = await settle(daemon, id);
    expect(source).toMatchObject({ embed_status: 'COMPLETED', embed_status_message: '', pages: 3 });
    expect(messages.length).toBeGreaterThan(0);
    for (const message of messages) expect(message).toMatch(/^text recognition: [0-3] of 3 pages$/);

    const hits = (
      await daemon.call('POST', `/applications/${applicationId}/search`, {
        query: 'what did the breakwater rebuilding cost',
        limit: 3,
      })
    ).body;
    expect(hits[0]).toMatchObject({ source: 'board-report.pdf', source_id: id, page: 2 });
    expect(hits[0].text).toContain('eighty thousand pounds');

    const reply = await daemon.call('POST', '/conversations', {
      application_id: applicationId,
      message: 'What was the breakwater at Eastness rebuilt in?',
    });
    expect(reply.status).toBe(200);
    expect(reply.body.message).toContain('granite');
    expect(reply.body.sources[0]).toMatchObject({ source: 'board-report.pdf', page: 2 });
  });

  test('with recognition turned off, a scanned-only PDF fails saying so', async () => {
    const off = await startTestDaemon({ config: { ocr: { enabled: false } } });
    try {
      const application = (await off.call('POST', '/applications', { name: 'off' })).body.id;
      const id = await addFile(
        off,
        application,
        'scan.pdf',
        await buildScannedPdf([{ scan: renderScan(FACT) }]),
      );
      const { source } = await settle(off, id);
      expect(source).toMatchObject({
        embed_status: 'FAILED',
        embed_status_message:
          'scan.pdf could not be read: no text could be extracted; it may be a scanned image, and text recognition is turned off',
      });
    } finally {
      await off.close();
    }
  });
});

describe('recognition settings', () => {
  let home: string;
  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'ckb-ocr-config-'));
  });
  afterAll(() => rm(home, { recursive: true, force: true }));

  test('the daemon refuses to start with a language whose pack is not installed, naming what to install', async () => {
    await writeFile(join(home, 'config.json'), JSON.stringify({ ocr: { languages: ['eng', 'fra'] } }));
    await expect(runDaemon({ home, port: 0, env: {}, handleSignals: false })).rejects.toThrow(
      `${join(home, 'config.json')}: "ocr.languages" names language packs that are not installed: "fra" (install it with npm install @tesseract.js-data/fra); install them, or remove them from the list`,
    );
  });

  test('a language that is not a language code is refused when the config is read', async () => {
    await writeFile(join(home, 'config.json'), JSON.stringify({ ocr: { languages: ['../../etc'] } }));
    await expect(runDaemon({ home, port: 0, env: {}, handleSignals: false })).rejects.toThrow(
      /config\.json is invalid at ocr\.languages\.0: must be a language code such as "eng" or "chi_sim"/,
    );
  });
});
