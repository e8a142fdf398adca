import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/types/src/display/api.js';
import type { ExtractedDocument, ExtractedPage } from '../types.ts';
import { type GreyBitmap, greyFromRgba, halveBitmap, textLineDirection, turnBitmap } from './bitmap.ts';
import { ExtractionError } from './errors.ts';
import { missingLanguagePacks } from './language-packs.ts';
import type { Recogniser, Recognition } from './recogniser.ts';
import {
  ALWAYS_ENOUGH_CHARACTERS,
  countCharacters,
  hasUsableTextLayer,
  imageCoverage,
  needsRecognition,
} from './scanned-page.ts';

export interface RecognitionOptions {
  /** Tesseract language codes, each an installed `@tesseract.js-data/<code>` package. */
  languages: string[];
  /** Scanned pages recognised at most in one file; the others are named in the file's warnings. */
  maxPages: number;
  /** Time limit of one page's recognition, all its attempts included. */
  pageTimeoutMs: number;
}

export const DEFAULT_RECOGNITION: RecognitionOptions = {
  languages: ['eng'],
  maxPages: 200,
  pageTimeoutMs: 30_000,
};

/**
 * How far a file's recognition is: of its pages with too little text (`total`), those looked at and, when they
 * are scans, read (`done`). A PDF of scans has as many of these as it has pages.
 */
export interface RecognitionProgress {
  done: number;
  total: number;
}

export interface ScannedPageOptions {
  /** How to recognise scanned pages; `false` turns recognition off. Default `DEFAULT_RECOGNITION`. */
  recognition?: RecognitionOptions | false | undefined;
  onProgress?: ((progress: RecognitionProgress) => void) | undefined;
}

/**
 * Pages are rendered at the resolution scans are commonly made at, up to this many pixels, which bounds the
 * memory a page takes (its bitmap and the recogniser's working copies) whatever size the page declares.
 */
const RENDER_DPI = 200;
const MAX_PAGE_PIXELS = 12_000_000;
/** pdf.js decodes no larger image (a 600-dpi A3 scan has 70 million pixels); the page then renders without it. */
const MAX_IMAGE_PIXELS = 100_000_000;

/** A reading this confident is taken as it is; a less confident one may be of a page turned sideways. */
const CONFIDENT = 70;
/** Below this, what was read is noise (a photograph, a smudge) rather than text. */
const LEGIBLE = 45;

/** Why a page yielded no text, each with the pages it happened to. */
type Shortfall = 'illegible' | 'timeout' | 'failed' | 'over_limit';

/**
 * Adds the text of scanned pages to a PDF's text layer. A page is recognised when its text layer falls short of
 * its size and most of it is a picture (see scanned-page.ts); other pages keep their text layer untouched, and a
 * PDF whose every page has enough text returns at once. A page that cannot be read becomes a warning; a file
 * where no page yields text fails, saying why.
 */
export async function withScannedPages(
  bytes: Uint8Array,
  document: ExtractedDocument,
  fileName: string,
  options: ScannedPageOptions = {},
): Promise<ExtractedDocument> {
  const recognition = options.recognition ?? DEFAULT_RECOGNITION;
  const unsure = document.pages.filter(
    (page) => countCharacters(page.text, ALWAYS_ENOUGH_CHARACTERS) < ALWAYS_ENOUGH_CHARACTERS,
  );
  if (unsure.length === 0) return document;
  if (recognition === false) {
    if (document.pages.some((page) => page.text.trim() !== '')) return document;
    throw ExtractionError.cannotRead(
      fileName,
      'no_text',
      'no text could be extracted; it may be a scanned image, and text recognition is turned off',
    );
  }
  const pdf = await openPdf(bytes);
  try {
    const shortfalls = new Map<Shortfall, number[]>();
    const note = (shortfall: Shortfall, page: number) =>
      shortfalls.set(shortfall, [...(shortfalls.get(shortfall) ?? []), page]);
    const recognised = await readScans(pdf, unsure, fileName, recognition, options.onProgress, note);
    if (recognised.size === 0 && shortfalls.size === 0) return document;
    const pages = document.pages.map((page) => {
      const text = recognised.get(page.page);
      return text === undefined ? page : { ...page, text };
    });
    // A picture with no legible text is worth a word only when the page has no text at all.
    const unread = [...shortfalls].filter(
      ([shortfall, numbers]) =>
        shortfall !== 'illegible' ||
        numbers.some((number) => !pages.find((page) => page.page === number)?.text.trim()),
    );
    const warnings = unread.map(([shortfall, numbers]) => describe(shortfall, numbers, recognition));
    if (pages.every((page) => page.text.trim() === '')) {
      throw ExtractionError.cannotRead(
        fileName,
        'no_text',
        `no text could be extracted: ${warnings.join('; ')}`,
      );
    }
    const warned = [...(document.warnings ?? []), ...warnings];
    return { ...document, pages, ...(warned.length > 0 ? { warnings: warned } : {}) };
  } finally {
    await pdf.destroy();
  }
}

/**
 * This worker's engines, by languages, kept warm from file to file (each stops itself once unused for a
 * while, see recogniser.ts), as worker.ts keeps its embedders.
 */
const recognisers = new Map<string, Promise<Recogniser>>();

async function recogniserFor(languages: readonly string[], fileName: string): Promise<Recogniser> {
  const missing = missingLanguagePacks(languages);
  if (missing.length > 0) {
    throw ExtractionError.cannotRead(
      fileName,
      'unreadable',
      `its scanned pages need text recognition languages that are not installed: ${missing.join(', ')}`,
    );
  }
  const key = languages.join('+');
  let kept = recognisers.get(key);
  if (!kept) {
    kept = import('./recogniser.ts').then(({ createRecogniser }) => createRecogniser(languages));
    recognisers.set(key, kept);
  }
  return kept;
}

async function openPdf(bytes: Uint8Array): Promise<PDFDocumentProxy> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const home = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  // pdf.js takes ownership of (detaches) the buffer it is given, so it gets a copy. Its data files are read from
  // its package: fonts a page names without embedding them, character maps, image decoders.
  return pdfjs.getDocument({
    data: new Uint8Array(bytes),
    verbosity: 0,
    isEvalSupported: false,
    maxImageSize: MAX_IMAGE_PIXELS,
    standardFontDataUrl: `${join(home, 'standard_fonts')}/`,
    cMapUrl: `${join(home, 'cmaps')}/`,
    cMapPacked: true,
    wasmUrl: `${join(home, 'wasm')}/`,
  }).promise;
}

/** A page with too little text, looked at: not a scan, a scan drawn for reading, or neither read nor looked at. */
type Looked =
  | { kind: 'text' }
  | { kind: 'scan'; bitmap: GreyBitmap }
  | { kind: 'over_limit' }
  | { kind: 'failed' };

/**
 * Looks at the pages with too little text one after the other and reads those that are scans, looking at (and
 * drawing) the next page while the current one is read. Looking costs pdf.js decoding the page's images, which
 * drawing it then reuses; past the page limit, pages are no longer looked at, so the limit bounds that too.
 */
async function readScans(
  pdf: PDFDocumentProxy,
  unsure: ExtractedPage[],
  fileName: string,
  options: RecognitionOptions,
  onProgress: ScannedPageOptions['onProgress'],
  note: (shortfall: Shortfall, page: number) => void,
): Promise<Map<number, string>> {
  const { OPS } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  let scans = 0;
  const look = async ({ page: number, text }: ExtractedPage): Promise<Looked> => {
    if (number < 1 || number > pdf.numPages) return { kind: 'text' };
    try {
      const page = await pdf.getPage(number);
      try {
        const [left, bottom, right, top] = page.view as [number, number, number, number];
        const facts = { characters: countCharacters(text), width: right - left, height: top - bottom };
        if (hasUsableTextLayer(facts)) return { kind: 'text' };
        // Past the limit, a page that may be a scan is not looked into (which would decode its images).
        if (scans >= options.maxPages) return { kind: 'over_limit' };
        const coverage = imageCoverage(await page.getOperatorList(), OPS, facts.width * facts.height);
        if (!needsRecognition({ ...facts, imageCoverage: coverage })) return { kind: 'text' };
        scans++;
        // The engine starts in its own thread while this one draws the page. (A failure to get it is reported
        // when the page is read.)
        if (scans === 1) {
          void recogniserFor(options.languages, fileName).then(
            (recogniser) => recogniser.prepare(),
            () => {},
          );
        }
        return { kind: 'scan', bitmap: await renderPage(page) };
      } finally {
        page.cleanup();
      }
    } catch {
      return { kind: 'failed' };
    }
  };

  const texts = new Map<number, string>();
  let recogniser: Recogniser | undefined;
  onProgress?.({ done: 0, total: unsure.length });
  let next: Promise<Looked> | undefined = unsure[0] && look(unsure[0]);
  for (let index = 0; index < unsure.length; index++) {
    const number = unsure[index]!.page;
    const looked = (await next)!;
    const following = unsure[index + 1];
    next = following && look(following);
    if (looked.kind === 'over_limit' || looked.kind === 'failed') note(looked.kind, number);
    if (looked.kind === 'scan') {
      recogniser ??= await recogniserFor(options.languages, fileName);
      try {
        const reading = await readUpright(
          recogniser,
          looked.bitmap,
          performance.now() + options.pageTimeoutMs,
        );
        if (reading.confidence >= LEGIBLE && reading.text.trim() !== '') texts.set(number, reading.text);
        else note('illegible', number);
      } catch (error) {
        note(error instanceof Error && error.name === 'RecognitionTimeout' ? 'timeout' : 'failed', number);
      }
    }
    onProgress?.({ done: index + 1, total: unsure.length });
  }
  return texts;
}

/** The page as pdf.js draws it (with its own rotation applied), in grey, at the recognition resolution. */
async function renderPage(page: PDFPageProxy): Promise<GreyBitmap> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const natural = page.getViewport({ scale: 1 });
  const scale = Math.min(
    RENDER_DPI / 72,
    Math.sqrt(MAX_PAGE_PIXELS / Math.max(1, natural.width * natural.height)),
  );
  const viewport = page.getViewport({ scale });
  const canvas = createCanvas(
    Math.max(1, Math.ceil(viewport.width)),
    Math.max(1, Math.ceil(viewport.height)),
  );
  const context = canvas.getContext('2d');
  // pdf.js is typed against the DOM's canvas, which @napi-rs/canvas implements for it in Node.
  await page.render({ canvas: canvas as never, canvasContext: context as never, viewport }).promise;
  const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
  return greyFromRgba(data, canvas.width, canvas.height, scale * 72);
}

/**
 * Reads a page the way up its lines run. A page scanned sideways is read turned a quarter first; a reading that
 * is not confident is compared with the other three ways up on a half-size copy (a quarter of the work each),
 * and the page is read again at full size when one of them does better.
 */
async function readUpright(
  recogniser: Recogniser,
  bitmap: GreyBitmap,
  deadline: number,
): Promise<Recognition> {
  const remaining = () => Math.max(1, deadline - performance.now());
  const first = textLineDirection(bitmap) === 'vertical' ? 1 : 0;
  const reading = await recogniser.recognise(turnBitmap(bitmap, first), remaining());
  if (reading.confidence >= CONFIDENT) return reading;
  const small = halveBitmap(bitmap);
  let bestTurn = first;
  let bestConfidence = -1;
  for (const turns of [first, first + 1, first + 2, first + 3]) {
    const { confidence } = await recogniser.recognise(turnBitmap(small, turns), remaining());
    if (confidence > bestConfidence) {
      bestConfidence = confidence;
      bestTurn = turns;
    }
  }
  if (bestTurn === first) return reading;
  const again = await recogniser.recognise(turnBitmap(bitmap, bestTurn), remaining());
  return again.confidence > reading.confidence ? again : reading;
}

function describe(shortfall: Shortfall, numbers: number[], options: RecognitionOptions): string {
  const pages = pageList(numbers);
  switch (shortfall) {
    case 'illegible':
      return `no legible text was found on ${pages}`;
    case 'timeout':
      return `text recognition took longer than ${duration(options.pageTimeoutMs)} on ${pages}`;
    case 'failed':
      return `text recognition failed on ${pages}`;
    case 'over_limit':
      return `${pages} ${numbers.length === 1 ? 'was' : 'were'} not read: text recognition stops after ${options.maxPages} scanned ${options.maxPages === 1 ? 'page' : 'pages'} per file`;
  }
}

function duration(milliseconds: number): string {
  return milliseconds >= 1000 ? `${Math.round(milliseconds / 1000)} s` : `${milliseconds} ms`;
}

/** "page 4", "pages 4 and 7", "pages 2, 4 to 6 and 9". */
export function pageList(numbers: readonly number[]): string {
  const sorted = [...new Set(numbers)].sort((left, right) => left - right);
  const ranges: string[] = [];
  for (let index = 0; index < sorted.length; ) {
    let end = index;
    while (end + 1 < sorted.length && sorted[end + 1] === sorted[end]! + 1) end++;
    const span = end - index;
    if (span >= 2) ranges.push(`${sorted[index]} to ${sorted[end]}`);
    else for (let single = index; single <= end; single++) ranges.push(String(sorted[single]));
    index = end + 1;
  }
  if (sorted.length === 1) return `page ${ranges[0]}`;
  const last = ranges.pop();
  return `pages ${ranges.length > 0 ? `${ranges.join(', ')} and ${last}` : last}`;
}
