import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createExtractor,
  DEFAULT_RECOGNITION,
  type Extractor,
  type RecognitionProgress,
} from '../../daemon/ingest/extract/index.ts';
import { failureOf } from '../support/extraction-failure.ts';
import { buildPdf } from '../support/fixtures-documents.ts';
import { buildScannedPdf, renderScan, wordRecall } from '../support/scans.ts';

const TIDES = [
  'The lighthouse keeper recorded the tide at seven minutes past six in the morning.',
  'Supplies arrived by boat every second Thursday, weather permitting, and the logbook lists forty-two crossings in the winter of that year.',
];
const LAMP = [
  'The lamp burned paraffin until the station was converted to electricity in nineteen fifty-two.',
  'A generator was installed in the old storeroom beside the tower.',
];
const HARBOUR = 'Harbour dues are paid each quarter to the port authority, in advance.';

let extractor: Extractor;
beforeAll(() => {
  extractor = createExtractor();
});
afterAll(async () => {
  await extractor.close();
});

describe('scanned PDF pages', () => {
  test('a mixed PDF keeps its text page as it is and reads its scans upright, each under its own page number', async () => {
    const pdf = await buildScannedPdf([
      { text: HARBOUR },
      { scan: renderScan(TIDES) },
      // Scanned in landscape and turned by the page's /Rotate entry, as scanners do.
      { scan: renderScan(LAMP, { quarterTurns: 3 }), rotate: 90 },
      // Laid sideways on the scanner, with nothing in the file to say so.
      { scan: renderScan(TIDES, { quarterTurns: 1 }) },
    ]);
    const progress: RecognitionProgress[] = [];
    const document = await extractor.extractBuffer(pdf, 'mixed.pdf', {
      onProgress: (news) => progress.push(news),
    });

    const textOnly = await extractor.extractBuffer(await buildScannedPdf([{ text: HARBOUR }]), 'text.pdf');
    expect(document.pages[0]).toEqual(textOnly.pages[0]);
    expect(document.pages.map((page) => page.page)).toEqual([1, 2, 3, 4]);
    expect(wordRecall(TIDES.join(' '), document.pages[1]!.text)).toBeGreaterThanOrEqual(0.95);
    expect(wordRecall(LAMP.join(' '), document.pages[2]!.text)).toBeGreaterThanOrEqual(0.95);
    expect(wordRecall(TIDES.join(' '), document.pages[3]!.text)).toBeGreaterThanOrEqual(0.95);
    expect(document.pages[1]!.text).toContain('forty-two crossings');
    expect(document.warnings).toBeUndefined();
    // Every page with little text is looked at, the typed page 1 too (it has enough for its small size).
    expect(progress).toEqual([0, 1, 2, 3, 4].map((done) => ({ done, total: 4 })));
  });

  test('a PDF of text pages is not looked at again, and reports no recognition', async () => {
    const progress: RecognitionProgress[] = [];
    const pdf = await buildPdf([`${HARBOUR} `.repeat(4), `${TIDES.join(' ')} `.repeat(2)]);
    const document = await extractor.extractBuffer(pdf, 'text.pdf', {
      onProgress: (news) => progress.push(news),
    });
    expect(document.pages).toHaveLength(2);
    expect(progress).toEqual([]);
  });

  test('with recognition turned off, scans yield nothing and an all-scanned PDF says why', async () => {
    const mixed = await buildScannedPdf([{ text: HARBOUR }, { scan: renderScan(TIDES) }]);
    const document = await extractor.extractBuffer(mixed, 'mixed.pdf', { recognition: false });
    expect(document.pages.map((page) => page.text)).toEqual([expect.stringContaining('Harbour dues'), '']);

    const scanned = await buildScannedPdf([{ scan: renderScan(TIDES) }]);
    const failure = await failureOf(extractor.extractBuffer(scanned, 'scan.pdf', { recognition: false }));
    expect(failure.reason).toBe('no_text');
    expect(failure.message).toBe(
      'scan.pdf could not be read: no text could be extracted; it may be a scanned image, and text recognition is turned off',
    );
  });

  test('a page that runs out of time is named in the warnings, and fails the file only when nothing else has text', async () => {
    const recognition = { ...DEFAULT_RECOGNITION, pageTimeoutMs: 1 };
    const mixed = await buildScannedPdf([{ text: HARBOUR }, { scan: renderScan(TIDES) }]);
    const document = await extractor.extractBuffer(mixed, 'mixed.pdf', { recognition });
    expect(document.pages[0]!.text).toContain('Harbour dues');
    expect(document.pages[1]!.text).toBe('');
    expect(document.warnings).toEqual(['text recognition took longer than 1 ms on page 2']);

    const scanned = await buildScannedPdf([{ scan: renderScan(TIDES) }, { scan: renderScan(LAMP) }]);
    const failure = await failureOf(extractor.extractBuffer(scanned, 'scan.pdf', { recognition }));
    expect(failure.reason).toBe('no_text');
    expect(failure.message).toBe(
      'scan.pdf could not be read: no text could be extracted: text recognition took longer than 1 ms on pages 1 and 2',
    );
  });

  test('scanned pages past the page limit are left out and named', async () => {
    const recognition = { ...DEFAULT_RECOGNITION, maxPages: 1 };
    const pdf = await buildScannedPdf([{ scan: renderScan(TIDES) }, { scan: renderScan(LAMP) }]);
    const document = await extractor.extractBuffer(pdf, 'scan.pdf', { recognition });
    expect(document.pages[0]!.text).toContain('lighthouse keeper');
    expect(document.pages[1]!.text).toBe('');
    expect(document.warnings).toEqual([
      'page 2 was not read: text recognition stops after 1 scanned page per file',
    ]);
  });

  test('a language whose pack is not installed is refused with what to install', async () => {
    const recognition = { ...DEFAULT_RECOGNITION, languages: ['eng', 'zzz'] };
    const pdf = await buildScannedPdf([{ scan: renderScan(TIDES) }]);
    const failure = await failureOf(extractor.extractBuffer(pdf, 'scan.pdf', { recognition }));
    expect(failure.message).toBe(
      'scan.pdf could not be read: its scanned pages need text recognition languages that are not installed: "zzz" (install it with npm install @tesseract.js-data/zzz)',
    );
  });
});

describe('recognition offline', () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'ckb-scan-'));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  test('reads a scan in a process, and its threads, where every network call fails', async () => {
    const path = join(directory, 'scan.pdf');
    await writeFile(path, await buildScannedPdf([{ scan: renderScan(TIDES) }]));
    const support = join(import.meta.dirname, '../support');
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [
      '--import',
      join(support, 'no-network.ts'),
      join(support, 'extract-file.ts'),
      path,
    ]);
    expect(stderr).not.toContain('network attempt');
    const document = JSON.parse(stdout) as { pages: { text: string }[] };
    expect(wordRecall(TIDES.join(' '), document.pages[0]!.text)).toBeGreaterThanOrEqual(0.95);
  });
});
