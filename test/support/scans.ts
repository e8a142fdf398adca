import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import PDFDocument from 'pdfkit';

// The font ships with pdf.js (already installed), so scans look the same on every machine, with or without
// system fonts.
const FONT = 'Scan Sans';
GlobalFonts.registerFromPath(
  join(
    dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')),
    'standard_fonts',
    'LiberationSans-Regular.ttf',
  ),
  FONT,
);

export interface ScanOptions {
  /** Resolution of the scan; default 200. */
  dpi?: number;
  /** Paper size in inches; default 6 × 4, small so recognition stays quick in tests. */
  widthInches?: number;
  heightInches?: number;
  /** Default 12. */
  fontPoints?: number;
  /** Quarter turns clockwise the paper lay on the scanner (the image is turned, not the page). */
  quarterTurns?: number;
}

export interface Scan {
  /** The scan as a PNG, as a scanner hands it over. */
  png: Uint8Array;
  /** Its size in PDF points, as the image is placed on the page. */
  width: number;
  height: number;
}

/**
 * Renders paragraphs as a scanner would see them printed: black text on white paper, wrapped at the margins.
 * Text that does not fit the paper is an error, so the scan always holds all of it.
 */
export function renderScan(paragraphs: readonly string[], options: ScanOptions = {}): Scan {
  const dpi = options.dpi ?? 200;
  const width = Math.round((options.widthInches ?? 6) * dpi);
  const height = Math.round((options.heightInches ?? 4) * dpi);
  const fontPixels = ((options.fontPoints ?? 12) / 72) * dpi;
  const margin = dpi / 2;
  const paper = createCanvas(width, height);
  const context = paper.getContext('2d');
  context.fillStyle = 'white';
  context.fillRect(0, 0, width, height);
  context.fillStyle = 'black';
  context.font = `${fontPixels}px "${FONT}"`;
  context.textBaseline = 'top';
  const lineHeight = fontPixels * 1.35;
  let y = margin;
  const write = (line: string) => {
    if (y + lineHeight > height - margin) throw new Error('the text does not fit the page');
    context.fillText(line, margin, y);
    y += lineHeight;
  };
  for (const paragraph of paragraphs) {
    let line = '';
    for (const word of paragraph.split(/\s+/)) {
      const longer = line ? `${line} ${word}` : word;
      if (line && context.measureText(longer).width > width - 2 * margin) {
        write(line);
        line = word;
      } else {
        line = longer;
      }
    }
    write(line);
    y += lineHeight;
  }
  const turns = (((options.quarterTurns ?? 0) % 4) + 4) % 4;
  const sideways = turns % 2 === 1;
  const turned = createCanvas(sideways ? height : width, sideways ? width : height);
  const turning = turned.getContext('2d');
  turning.translate(turned.width / 2, turned.height / 2);
  turning.rotate((turns * Math.PI) / 2);
  turning.drawImage(paper, -width / 2, -height / 2);
  return {
    png: new Uint8Array(turned.toBuffer('image/png')),
    width: (turned.width / dpi) * 72,
    height: (turned.height / dpi) * 72,
  };
}

/**
 * A page of a test PDF: text in a text layer (6 × 4 inches at 12 points unless given), or a scan filling the
 * page (turned by `rotate` when shown).
 */
export type TestPage =
  | { text: string; size?: [width: number, height: number]; fontPoints?: number }
  | { scan: Scan; rotate?: 90 | 180 | 270 };

/** A PDF of text pages and image-only pages, made with pdfkit. */
export function buildScannedPdf(pages: readonly TestPage[]): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const document = new PDFDocument({ autoFirstPage: false, compress: false });
    const parts: Buffer[] = [];
    document.on('data', (part: Buffer) => parts.push(part));
    document.on('end', () => resolve(new Uint8Array(Buffer.concat(parts))));
    document.on('error', reject);
    for (const page of pages) {
      if ('text' in page) {
        document.addPage({ size: page.size ?? [432, 288], margin: 36 });
        document.fontSize(page.fontPoints ?? 12).text(page.text);
        continue;
      }
      const { scan } = page;
      document.addPage({ size: [scan.width, scan.height], margin: 0 });
      document.image(Buffer.from(scan.png), 0, 0, { width: scan.width, height: scan.height });
      // pdfkit has no option for a page's /Rotate entry; its page dictionary takes one.
      if (page.rotate) (document.page.dictionary.data as Record<string, unknown>)['Rotate'] = page.rotate;
    }
    document.end();
  });
}

/** Lower-case words of a text, as recall counts them. */
function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** The share of the words of `expected` (counted with repeats) that `actual` holds. */
export function wordRecall(expected: string, actual: string): number {
  const available = new Map<string, number>();
  for (const word of wordsOf(actual)) available.set(word, (available.get(word) ?? 0) + 1);
  const wanted = wordsOf(expected);
  let found = 0;
  for (const word of wanted) {
    const left = available.get(word) ?? 0;
    if (left > 0) {
      found++;
      available.set(word, left - 1);
    }
  }
  return wanted.length === 0 ? 1 : found / wanted.length;
}
