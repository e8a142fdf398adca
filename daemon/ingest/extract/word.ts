import mammoth from 'mammoth';
import WordExtractor from 'word-extractor';
import type { ExtractedDocument } from '../types.ts';
import { ExtractionError } from './errors.ts';
import { htmlToText } from './html.ts';

const DAMAGED = 'the file is damaged or truncated; open it in Word, save it again and re-upload it';
const KEEP_UNICODE = { filterUnicode: false } as const;

/** Word 97-2003: body, then text boxes, footnotes, endnotes and comments, as one page. */
export async function readWord(bytes: Uint8Array, fileName: string): Promise<ExtractedDocument> {
  let document: Awaited<ReturnType<WordExtractor['extract']>>;
  try {
    document = await new WordExtractor().extract(Buffer.from(bytes));
  } catch (error) {
    throw ExtractionError.cannotRead(fileName, 'corrupt', DAMAGED, error);
  }
  const parts = [
    document.getBody(KEEP_UNICODE),
    document.getTextboxes({ ...KEEP_UNICODE, includeHeadersAndFooters: false, includeBody: true }),
    document.getFootnotes(KEEP_UNICODE),
    document.getEndnotes(KEEP_UNICODE),
    document.getAnnotations(KEEP_UNICODE),
  ];
  return { pages: [{ page: 1, text: parts.filter((part) => part.trim()).join('\n\n') }] };
}

/** Word 2007+: converted to HTML first so headings, lists and tables keep their shape. */
export async function readWordXml(bytes: Uint8Array, fileName: string): Promise<ExtractedDocument> {
  let html: string;
  try {
    html = (await mammoth.convertToHtml({ buffer: Buffer.from(bytes) }, { ignoreEmptyParagraphs: true }))
      .value;
  } catch (error) {
    throw ExtractionError.cannotRead(fileName, 'corrupt', DAMAGED, error);
  }
  return { pages: [{ page: 1, text: htmlToText(html) }] };
}
