// Text recognition of scanned PDF pages: real paragraphs (the QA documents) printed on Letter pages and
// scanned at 200 dpi, read through the extraction pool of 2 workers, side by side with the same pages as a
// PDF text layer. Also shows that a PDF without scanned pages is read as fast with recognition on as off.
import { readdir, readFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { createExtractor, type Extractor } from '../daemon/ingest/extract/index.ts';
import type { ExtractedDocument } from '../daemon/ingest/types.ts';
import { requireCorpus } from '../test/support/corpus.ts';
import { buildScannedPdf, renderScan, wordRecall } from '../test/support/scans.ts';
import { median, round } from './support.ts';

const DPI = 200;
const PAGES_PER_DOCUMENT = 4;
const DOCUMENTS = 2;
/** About what a page of 11-point prose holds, with room to spare on Letter paper. */
const WORDS_PER_PAGE = 420;
/** Runs of each text PDF with recognition on and off, interleaved. */
const TEXT_RUNS = 15;

/** Pages of prose from the QA documents, in order: paragraphs as printed, up to a page's worth of words. */
async function pagesOfProse(corpus: string, count: number): Promise<string[][]> {
  const directory = join(corpus, 'qa/squad-v1.1-dev/docs');
  const paragraphs: string[] = [];
  for (const name of (await readdir(directory)).sort()) {
    const text = await readFile(join(directory, name), 'utf8');
    paragraphs.push(
      ...text
        .split(/\n\s*\n/)
        .map((paragraph) => paragraph.replace(/\s+/g, ' ').trim())
        .filter((paragraph) => paragraph !== '' && !paragraph.startsWith('#')),
    );
  }
  const pages: string[][] = [];
  let page: string[] = [];
  let words = 0;
  for (const paragraph of paragraphs) {
    const length = paragraph.split(' ').length;
    if (length > WORDS_PER_PAGE) continue;
    if (words + length > WORDS_PER_PAGE) {
      pages.push(page);
      if (pages.length === count) break;
      page = [];
      words = 0;
    }
    page.push(paragraph);
    words += length;
  }
  return pages;
}

interface Timed {
  document: ExtractedDocument;
  seconds: number;
  /** Seconds from the start to each page recognised. */
  pageTimes: number[];
}

async function extractTimed(extractor: Extractor, pdf: Uint8Array, name: string, ocr = true): Promise<Timed> {
  const pageTimes: number[] = [];
  const started = performance.now();
  const document = await extractor.extractBuffer(pdf, name, {
    ...(ocr ? {} : { recognition: false as const }),
    onProgress: () => pageTimes.push((performance.now() - started) / 1000),
  });
  return { document, seconds: (performance.now() - started) / 1000, pageTimes };
}

function recalls(document: ExtractedDocument, pages: string[][]): number[] {
  return pages.map((paragraphs, index) =>
    wordRecall(paragraphs.join(' '), document.pages[index]?.text ?? ''),
  );
}

function summary(values: number[]) {
  return {
    mean: round(values.reduce((sum, value) => sum + value, 0) / values.length, 3),
    min: round(Math.min(...values), 3),
  };
}

export async function run() {
  const corpus = requireCorpus();
  const prose = await pagesOfProse(corpus, PAGES_PER_DOCUMENT * DOCUMENTS);
  const documents = Array.from({ length: DOCUMENTS }, (_, index) =>
    prose.slice(index * PAGES_PER_DOCUMENT, (index + 1) * PAGES_PER_DOCUMENT),
  );
  const letter = { widthInches: 8.5, heightInches: 11, fontPoints: 11, dpi: DPI };
  const scanned = await Promise.all(
    documents.map((pages) => buildScannedPdf(pages.map((page) => ({ scan: renderScan(page, letter) })))),
  );
  const typed = await Promise.all(
    documents.map((pages) =>
      buildScannedPdf(pages.map((page) => ({ text: page.join('\n\n'), size: [612, 792], fontPoints: 11 }))),
    ),
  );

  const scannedPages = PAGES_PER_DOCUMENT * DOCUMENTS;
  const extractor = createExtractor(2);
  const load = loadavg()[0]!;
  try {
    // Warm both workers' parsers, so the figures are of reading, not of loading modules.
    await Promise.all(typed.map((pdf, index) => extractor.extractBuffer(pdf, `warm-${index}.pdf`)));

    // PDFs without scanned pages (the corpus's good PDFs and the typed twins), read with recognition on and off,
    // before any scan is read, so that no recognition engine is running or warming up meanwhile.
    const manifest = JSON.parse(await readFile(join(corpus, 'files/MANIFEST.json'), 'utf8')) as {
      path: string;
      ext: string;
      kind: string;
    }[];
    const textPdfs = [
      ...(await Promise.all(
        manifest
          .filter((entry) => entry.ext === 'pdf' && entry.kind === 'good')
          .map(async (entry) => ({
            name: entry.path,
            bytes: new Uint8Array(await readFile(resolve(corpus, 'files', entry.path))),
          })),
      )),
      ...typed.map((bytes, index) => ({ name: `typed-${index}.pdf`, bytes })),
    ];
    // Each file is read with recognition on and off back to back, in alternating order, so that the shared
    // machine's load, which moves by half within minutes, weighs on both alike.
    const on: number[] = [];
    const off: number[] = [];
    const cpuOnOff = { on: 0, off: 0 };
    for (let runIndex = 0; runIndex < TEXT_RUNS; runIndex++) {
      let onSeconds = 0;
      let offSeconds = 0;
      for (const [fileIndex, pdf] of textPdfs.entries()) {
        const order = (runIndex + fileIndex) % 2 === 0 ? [true, false] : [false, true];
        for (const ocr of order) {
          const before = process.cpuUsage();
          const { seconds } = await extractTimed(extractor, pdf.bytes, pdf.name, ocr);
          const used = process.cpuUsage(before);
          cpuOnOff[ocr ? 'on' : 'off'] += (used.user + used.system) / 1e6;
          if (ocr) onSeconds += seconds;
          else offSeconds += seconds;
        }
      }
      on.push(onSeconds);
      off.push(offSeconds);
    }

    // One scanned document alone: the time of each page (engine start included in the first).
    const cpuBefore = process.cpuUsage();
    const alone = await extractTimed(extractor, scanned[0]!, 'alone.pdf');
    const cpu = process.cpuUsage(cpuBefore);
    const perPage = alone.pageTimes.slice(1).map((time, index) => time - alone.pageTimes[index]!);

    // Every scanned document at once, one per worker: both cores.
    const started = performance.now();
    const cpuTogether = process.cpuUsage();
    const together = await Promise.all(
      scanned.map((pdf, index) => extractTimed(extractor, pdf, `scan-${index}.pdf`)),
    );
    const togetherSeconds = (performance.now() - started) / 1000;
    const cpuTogetherUsed = process.cpuUsage(cpuTogether);
    const scanRecall = together.flatMap((result, index) => recalls(result.document, documents[index]!));

    // The same pages as a text layer, both at once.
    const typedStarted = performance.now();
    const typedResults = await Promise.all(
      typed.map((pdf, index) => extractTimed(extractor, pdf, `typed-${index}.pdf`)),
    );
    const typedSeconds = (performance.now() - typedStarted) / 1000;
    const typedRecall = typedResults.flatMap((result, index) => recalls(result.document, documents[index]!));

    return {
      load_average_1m_at_start: round(load, 1),
      setup: `${DOCUMENTS} documents of ${PAGES_PER_DOCUMENT} Letter pages of QA prose at 11 pt (${WORDS_PER_PAGE} words at most a page), scanned at ${DPI} dpi; extraction pool of 2 workers`,
      scanned: {
        pages_per_second_2_cores: round(scannedPages / togetherSeconds, 3),
        seconds_2_cores: round(togetherSeconds, 2),
        cpu_seconds_per_page_2_cores: round(
          (cpuTogetherUsed.user + cpuTogetherUsed.system) / 1e6 / scannedPages,
          2,
        ),
        one_document_alone_seconds: round(alone.seconds, 2),
        seconds_per_page_alone: { median: round(median(perPage), 2), max: round(Math.max(...perPage), 2) },
        // All threads' CPU time: what a page costs whatever else the shared machine is running.
        cpu_seconds_per_page_alone: round((cpu.user + cpu.system) / 1e6 / PAGES_PER_DOCUMENT, 2),
        word_recall: summary(scanRecall),
      },
      text_layer: {
        pages_per_second_2_cores: round(scannedPages / typedSeconds, 1),
        word_recall: summary(typedRecall),
      },
      pdfs_without_scans: {
        files: textPdfs.map((pdf) => pdf.name),
        seconds_recognition_on: round(median(on), 3),
        seconds_recognition_off: round(median(off), 3),
        ratio_on_over_off: round(median(on) / median(off), 3),
        cpu_ratio_on_over_off: round(cpuOnOff.on / cpuOnOff.off, 3),
      },
    };
  } finally {
    await extractor.close();
  }
}
