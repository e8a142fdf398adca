import type { PDFParse } from 'pdf-parse';
import { layoutPageText, type PlacedText } from './pdf-layout.ts';

/** The parts of pdf.js's document that reading text in order needs. */
interface PdfDocument {
  numPages: number;
  getPage(number: number): Promise<{
    getViewport(options: { scale: number }): { width: number };
    getTextContent(): Promise<{ items: object[] }>;
    cleanup(): void;
  }>;
}

/**
 * Each page's text ordered by its layout (pdf-layout.ts), from pdf.js's text runs and their positions, which
 * pdf-parse's `getText` does not hand out: its loaded pdf.js document is read directly.
 */
export async function readPagesInOrder(parser: PDFParse): Promise<{ page: number; text: string }[]> {
  const document = await (parser as unknown as { load(): Promise<PdfDocument> }).load();
  const pages: { page: number; text: string }[] = [];
  for (let number = 1; number <= document.numPages; number++) {
    const page = await document.getPage(number);
    const content = await page.getTextContent();
    pages.push({
      page: number,
      text: layoutPageText(content.items.flatMap(placedText), page.getViewport({ scale: 1 }).width),
    });
    page.cleanup();
  }
  return pages;
}

function placedText(item: object): PlacedText[] {
  if (!('str' in item) || !('transform' in item)) return [];
  const { str, transform, width, height } = item as {
    str: string;
    transform: number[];
    width: number;
    height: number;
  };
  return [{ text: str, x: transform[4] ?? 0, y: transform[5] ?? 0, width, height }];
}
