import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createExtractor,
  ExtractionError,
  type ExtractionFailure,
  normalizeText,
} from '../../daemon/ingest/extract/index.ts';
import { corpusOrSkip } from '../support/corpus.ts';

interface ManifestEntry {
  path: string;
  bytes: number;
  sha256: string;
  pages: number | null;
  phrases: { text: string; page: number | null }[];
  kind: 'good' | 'encrypted' | 'corrupt' | 'empty' | 'mislabelled';
  expected_error?: string;
}

const corpus = corpusOrSkip('the extraction tests of every corpus file (files/MANIFEST.json)');
const filesDir = join(corpus ?? '', 'files');
const manifest: ManifestEntry[] = corpus
  ? JSON.parse(readFileSync(join(filesDir, 'MANIFEST.json'), 'utf8'))
  : [];
const extractor = createExtractor();
afterAll(() => extractor.close());

const collapse = (text: string): string => text.replace(/\s+/g, ' ');

// What each kind of bad file must produce, per the MANIFEST's expected_error.
const EXPECTED_FAILURES: Record<
  Exclude<ManifestEntry['kind'], 'good'>,
  { reason: ExtractionFailure; message: RegExp }
> = {
  encrypted: { reason: 'encrypted', message: /encrypted \(password protected\)/ },
  corrupt: { reason: 'corrupt', message: /damaged or truncated/ },
  empty: { reason: 'empty', message: /empty \(0 bytes\)/ },
  mislabelled: { reason: 'mislabelled', message: /not a PDF but an HTML page/ },
};

function checkedBytes(entry: ManifestEntry): Buffer {
  const bytes = readFileSync(join(filesDir, entry.path));
  expect(bytes.length).toBe(entry.bytes);
  expect(createHash('sha256').update(bytes).digest('hex')).toBe(entry.sha256);
  return bytes;
}

describe.skipIf(corpus === undefined)('corpus: good documents', () => {
  for (const entry of manifest.filter((candidate) => candidate.kind === 'good')) {
    it(`${entry.path}: every listed phrase, on its listed page`, async () => {
      checkedBytes(entry);
      const document = await extractor.extractFile(join(filesDir, entry.path), basename(entry.path));
      if (entry.pages !== null) expect(document.pages.map((page) => page.page).at(-1)).toBe(entry.pages);
      for (const phrase of entry.phrases) {
        const pages =
          phrase.page === null ? document.pages : document.pages.filter((page) => page.page === phrase.page);
        expect(
          pages.some((page) => collapse(page.text).includes(phrase.text)),
          `"${phrase.text}" on page ${phrase.page ?? 'any'}`,
        ).toBe(true);
      }
      for (const page of document.pages) expect(page.text).toBe(normalizeText(page.text));
    });
  }
});

describe.skipIf(corpus === undefined)('corpus: bad documents', () => {
  for (const entry of manifest.filter(
    (candidate) => candidate.kind !== 'good' && candidate.path !== 'txt/rfc2822.txt',
  )) {
    it(`${entry.path} (${entry.kind}) fails with a message a user can act on`, async () => {
      checkedBytes(entry);
      const failure = await extractor.extractFile(join(filesDir, entry.path), basename(entry.path)).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(ExtractionError);
      const { reason, message } = failure as ExtractionError;
      const expected = EXPECTED_FAILURES[entry.kind as keyof typeof EXPECTED_FAILURES];
      expect(reason).toBe(expected.reason);
      expect(message).toMatch(expected.message);
      expect(message.startsWith(`${basename(entry.path)} could not be read: `)).toBe(true);
      expect(message).not.toMatch(/\n/);
    });
  }

  // The MANIFEST asks a content-sniffing reader to recognise this .txt as HTML; read as a page it serves best.
  it('txt/rfc2822.txt, an HTML page named .txt, is read as HTML without its markup', async () => {
    const entry = manifest.find((candidate) => candidate.path === 'txt/rfc2822.txt');
    expect(entry?.kind).toBe('mislabelled');
    checkedBytes(entry!);
    const document = await extractor.extractFile(join(filesDir, entry!.path), 'rfc2822.txt');
    const text = document.pages.map((page) => page.text).join('\n');
    expect(document.title).toBe('RFC 2822 (rfc2822) - Internet Message Format');
    expect(text).toContain('Internet Message Format');
    expect(text).not.toMatch(/<(html|head|title|meta|script)[\s>]/i);
    expect(text).not.toContain('function erfc');
  });
});
