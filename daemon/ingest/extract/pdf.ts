import { InvalidPDFException, PasswordException, PDFParse } from 'pdf-parse';
import type { ExtractedDocument } from '../types.ts';
import { ENCRYPTED_DETAIL, ExtractionError } from './errors.ts';
import { readPagesInOrder } from './pdf-text.ts';

/** One page per PDF page, numbered as the PDF numbers them. */
export async function readPdf(bytes: Uint8Array, fileName: string): Promise<ExtractedDocument> {
  // pdf.js takes ownership of (detaches) the buffer it is given, so it gets a copy.
  const parser = new PDFParse({ data: new Uint8Array(bytes), verbosity: 0 });
  try {
    return { pages: await readPagesInOrder(parser) };
  } catch (error) {
    throw pdfFailure(error, fileName);
  } finally {
    await parser.destroy();
  }
}

function pdfFailure(error: unknown, fileName: string): ExtractionError {
  if (error instanceof PasswordException || (error instanceof Error && error.name === 'PasswordException')) {
    return ExtractionError.cannotRead(fileName, 'encrypted', ENCRYPTED_DETAIL, error);
  }
  const detail =
    error instanceof InvalidPDFException ? 'the file is damaged or truncated' : 'the PDF is malformed';
  return ExtractionError.cannotRead(fileName, 'corrupt', `${detail} (${describe(error)})`, error);
}

function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
}
