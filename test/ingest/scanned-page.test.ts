import { createCanvas, loadImage } from '@napi-rs/canvas';
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import PDFDocument from 'pdfkit';
import { describe, expect, test } from 'vitest';
import {
  type GreyBitmap,
  greyFromRgba,
  halveBitmap,
  textLineDirection,
  turnBitmap,
} from '../../daemon/ingest/extract/bitmap.ts';
import { pageList } from '../../daemon/ingest/extract/pdf-ocr.ts';
import {
  countCharacters,
  hasUsableTextLayer,
  imageCoverage,
  needsRecognition,
} from '../../daemon/ingest/extract/scanned-page.ts';
import { renderScan } from '../support/scans.ts';

const LETTER = { width: 612, height: 792 };

describe('which PDF pages are recognised', () => {
  test('a page of prose keeps its text layer, whatever its pictures', () => {
    const page = { ...LETTER, characters: 2400, imageCoverage: 1 };
    expect(hasUsableTextLayer(page)).toBe(true);
    expect(needsRecognition(page)).toBe(false);
  });

  test('a full-page picture with no text, or only a stamped page number, is recognised', () => {
    expect(needsRecognition({ ...LETTER, characters: 0, imageCoverage: 1 })).toBe(true);
    expect(needsRecognition({ ...LETTER, characters: 12, imageCoverage: 0.98 })).toBe(true);
  });

  test('text is weighed against the page size: enough for a postcard is too little for a letter page', () => {
    const postcard = { width: 6 * 72, height: 4 * 72 };
    expect(hasUsableTextLayer({ ...postcard, characters: 30 })).toBe(true);
    expect(hasUsableTextLayer({ ...LETTER, characters: 30 })).toBe(false);
  });

  test('a page with little text and no large picture has nothing more to read', () => {
    expect(needsRecognition({ ...LETTER, characters: 14, imageCoverage: 0 })).toBe(false);
    expect(needsRecognition({ ...LETTER, characters: 0, imageCoverage: 0.2 })).toBe(false);
  });

  test('whitespace is not text, and counting stops at the limit asked for', () => {
    expect(countCharacters(' \n\t a b\u00a0c\u2003d\u3000 \n')).toBe(4);
    expect(countCharacters('abcdef', 4)).toBe(4);
  });
});

/** A one-page PDF drawn by `draw`, made with pdfkit. */
function pdfOf(draw: (document: PDFKit.PDFDocument) => void): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const document = new PDFDocument({ size: 'LETTER', margin: 0 });
    const parts: Buffer[] = [];
    document.on('data', (part: Buffer) => parts.push(part));
    document.on('end', () => resolve(new Uint8Array(Buffer.concat(parts))));
    document.on('error', reject);
    draw(document);
    document.end();
  });
}

async function coverageOf(bytes: Uint8Array): Promise<number> {
  const pdf = await getDocument({ data: bytes, verbosity: 0 }).promise;
  try {
    const page = await pdf.getPage(1);
    const [left, bottom, right, top] = page.view as [number, number, number, number];
    return imageCoverage(await page.getOperatorList(), OPS, (right - left) * (top - bottom));
  } finally {
    await pdf.destroy();
  }
}

describe('image coverage, from pdf.js operator lists of real PDFs', () => {
  const picture = Buffer.from(renderScan(['A small picture.'], { dpi: 50 }).png);

  test('a scan filling the page covers all of it', async () => {
    expect(await coverageOf(await pdfOf((document) => document.image(picture, 0, 0, LETTER)))).toBeCloseTo(
      1,
      3,
    );
  });

  test('a picture a quarter of the page covers a quarter, moved and scaled by the page transformations', async () => {
    const quarter = await pdfOf((document) => {
      document.save().translate(100, 100).scale(0.5);
      document.image(picture, 0, 0, LETTER);
      document.restore();
    });
    expect(await coverageOf(quarter)).toBeCloseTo(0.25, 3);
  });

  test('text and drawings cover nothing', async () => {
    const drawn = await pdfOf((document) => {
      document.fontSize(12).text('Only words here.', 72, 72);
      document.rect(50, 50, 400, 400).fill('#336699');
    });
    expect(await coverageOf(drawn)).toBe(0);
  });
});

async function bitmapOf(png: Uint8Array): Promise<GreyBitmap> {
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  return greyFromRgba(
    context.getImageData(0, 0, image.width, image.height).data,
    image.width,
    image.height,
    200,
  );
}

const PROSE = [
  'Supplies arrived by boat every second Thursday, weather permitting, and the keeper signed for each crate.',
  'The logbook lists forty-two crossings in the winter of that year.',
];

describe('bitmaps', () => {
  test('four quarter turns give the bitmap back, and one swaps its sides', () => {
    const bitmap: GreyBitmap = { width: 3, height: 2, pixels: Uint8Array.of(1, 2, 3, 4, 5, 6), dpi: 200 };
    const once = turnBitmap(bitmap, 1);
    expect(once).toEqual({ width: 2, height: 3, pixels: Uint8Array.of(4, 1, 5, 2, 6, 3), dpi: 200 });
    expect(turnBitmap(bitmap, 3)).toEqual({
      width: 2,
      height: 3,
      pixels: Uint8Array.of(3, 6, 2, 5, 1, 4),
      dpi: 200,
    });
    expect(turnBitmap(bitmap, 2).pixels).toEqual(Uint8Array.of(6, 5, 4, 3, 2, 1));
    expect(turnBitmap(turnBitmap(turnBitmap(once, 1), 1), 1)).toEqual(bitmap);
  });

  test('halving averages each square of four pixels and halves the resolution', () => {
    const bitmap: GreyBitmap = { width: 2, height: 2, pixels: Uint8Array.of(0, 100, 200, 100), dpi: 200 };
    expect(halveBitmap(bitmap)).toEqual({ width: 1, height: 1, pixels: Uint8Array.of(100), dpi: 100 });
  });

  test('the lines of an upright or upside-down scan run across it, of a sideways one down it', async () => {
    for (const quarterTurns of [0, 2]) {
      expect(textLineDirection(await bitmapOf(renderScan(PROSE, { quarterTurns }).png))).toBe('horizontal');
    }
    for (const quarterTurns of [1, 3]) {
      expect(textLineDirection(await bitmapOf(renderScan(PROSE, { quarterTurns }).png))).toBe('vertical');
    }
  });

  test('a blank page and a single line read as horizontal', async () => {
    expect(textLineDirection(await bitmapOf(renderScan([]).png))).toBe('horizontal');
    expect(textLineDirection(await bitmapOf(renderScan(['One short line.']).png))).toBe('horizontal');
  });
});

describe('page lists in messages', () => {
  test('single pages, pairs and runs', () => {
    expect(pageList([4])).toBe('page 4');
    expect(pageList([7, 4])).toBe('pages 4 and 7');
    expect(pageList([4, 5, 6])).toBe('pages 4 to 6');
    expect(pageList([9, 2, 4, 5, 6, 11, 12])).toBe('pages 2, 4 to 6, 9, 11 and 12');
  });
});
