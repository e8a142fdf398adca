import { extname } from 'node:path';
import CFB from 'cfb';
import { isSupportedExtension, type SupportedExtension } from '../../../src/api/files.ts';
import { decodeText } from '../decode-text.ts';
import type { ExtractedDocument } from '../types.ts';
import { ENCRYPTED_DETAIL, ExtractionError } from './errors.ts';
import { normalizeText } from './normalize.ts';
import type { ScannedPageOptions } from './pdf-ocr.ts';
import { hasPdfHeader, isOleContainer, isZipArchive, looksLikeHtml } from './sniff.ts';
import { checkUnzippedSize } from './unzipped-size.ts';

// An e-mail attached to an e-mail is read, but no deeper: a crafted message cannot recurse without end.
const MAXIMUM_ATTACHMENT_DEPTH = 2;

/** How to read what a document holds besides text: the scanned pages of a PDF. */
export type ParseOptions = ScannedPageOptions;

/**
 * Bytes → pages, in this thread. The format is chosen by the extension, corrected by the content where the two
 * disagree in a way we can serve (a .doc that is really a .docx, a .txt that is an HTML page).
 */
export async function parseDocument(
  bytes: Uint8Array,
  fileName: string,
  options: ParseOptions = {},
  depth = 0,
): Promise<ExtractedDocument> {
  const extension = extname(fileName).toLowerCase();
  if (!isSupportedExtension(extension)) {
    throw ExtractionError.cannotRead(
      fileName,
      'unsupported',
      `files of type "${extension || fileName}" are not supported`,
    );
  }
  if (bytes.length === 0) throw ExtractionError.cannotRead(fileName, 'empty', 'the file is empty (0 bytes)');
  const format = detectFormat(bytes, extension, fileName);
  const document = await readFormat(format, bytes, fileName, options, depth);
  return finish(document, format, fileName);
}

function detectFormat(
  bytes: Uint8Array,
  extension: SupportedExtension,
  fileName: string,
): SupportedExtension {
  switch (extension) {
    case '.pdf':
      if (hasPdfHeader(bytes)) return '.pdf';
      if (looksLikeHtml(decodeText(bytes.subarray(0, 4096)))) {
        throw ExtractionError.cannotRead(
          fileName,
          'mislabelled',
          'the file is not a PDF but an HTML page; upload it with the .html extension',
        );
      }
      throw ExtractionError.cannotRead(
        fileName,
        'corrupt',
        'the file is not a valid PDF (it has no PDF header)',
      );
    case '.docx':
    case '.pptx':
      if (isOleContainer(bytes)) {
        if (isEncryptedOle(bytes)) throw ExtractionError.cannotRead(fileName, 'encrypted', ENCRYPTED_DETAIL);
        return extension === '.docx' ? '.doc' : '.ppt';
      }
      return isZipArchive(bytes) ? extension : detectNonOffice(bytes, extension, fileName);
    case '.doc':
    case '.ppt':
      if (isOleContainer(bytes)) {
        if (isEncryptedOle(bytes)) throw ExtractionError.cannotRead(fileName, 'encrypted', ENCRYPTED_DETAIL);
        return extension;
      }
      if (isZipArchive(bytes)) return extension === '.doc' ? '.docx' : '.pptx';
      return detectNonOffice(bytes, extension, fileName);
    case '.txt':
      return looksLikeHtml(decodeText(bytes.subarray(0, 4096))) ? '.html' : '.txt';
    default:
      return extension;
  }
}

// Word's "save as web page" and RTF exports are often named .doc.
function detectNonOffice(
  bytes: Uint8Array,
  extension: SupportedExtension,
  fileName: string,
): SupportedExtension {
  const opening = decodeText(bytes.subarray(0, 4096));
  if (looksLikeHtml(opening)) return '.html';
  if (opening.startsWith('{\\rtf')) {
    throw ExtractionError.cannotRead(
      fileName,
      'mislabelled',
      'the file is an RTF document, which is not supported; save it as .docx and upload it again',
    );
  }
  const kind = extension === '.doc' || extension === '.docx' ? 'Word document' : 'PowerPoint presentation';
  throw ExtractionError.cannotRead(
    fileName,
    'corrupt',
    `the file is not a valid ${kind}; open it in Office, save it again and re-upload it`,
  );
}

/** Encrypted OOXML sits in an OLE container; legacy Word flags encryption in its file information block. */
function isEncryptedOle(bytes: Uint8Array): boolean {
  let container: CFB.CFB$Container;
  try {
    container = CFB.read(bytes, { type: 'buffer' });
  } catch {
    // A broken container is reported by the format's reader, which says what it expected.
    return false;
  }
  if (CFB.find(container, 'EncryptedPackage') || CFB.find(container, 'EncryptedSummary')) return true;
  const word = CFB.find(container, 'WordDocument')?.content;
  if (!word || word.length < 0x0c) return false;
  // FIB base: flags at offset 0x0A, fEncrypted is bit 0x0100.
  const flags = (word[0x0a] ?? 0) | ((word[0x0b] ?? 0) << 8);
  return (flags & 0x0100) !== 0;
}

// Each reader loads its library on first use: together they take seconds to load, and a worker needs few.
async function readFormat(
  format: SupportedExtension,
  bytes: Uint8Array,
  fileName: string,
  options: ParseOptions,
  depth: number,
): Promise<ExtractedDocument> {
  switch (format) {
    case '.pdf': {
      const document = await (await import('./pdf.ts')).readPdf(bytes, fileName);
      return (await import('./pdf-ocr.ts')).withScannedPages(bytes, document, fileName, options);
    }
    case '.doc':
      return (await import('./word.ts')).readWord(bytes, fileName);
    case '.docx':
      await checkUnzippedSize(bytes, fileName);
      return (await import('./word.ts')).readWordXml(bytes, fileName);
    case '.ppt':
      return (await import('./slides.ts')).readPresentation(bytes, fileName);
    case '.pptx':
      await checkUnzippedSize(bytes, fileName);
      return (await import('./slides.ts')).readPresentationXml(bytes, fileName);
    case '.md':
      return (await import('./text.ts')).readMarkdown(bytes);
    case '.json':
      return (await import('./text.ts')).readJson(bytes, fileName);
    case '.txt':
      return (await import('./text.ts')).readPlainText(bytes);
    case '.html':
      return readHtml(bytes);
    case '.eml':
      return (await import('./email.ts')).readEmail(bytes, fileName, (attachment, name) => {
        if (depth >= MAXIMUM_ATTACHMENT_DEPTH) {
          throw ExtractionError.cannotRead(name, 'unsupported', 'attachments are nested too deeply');
        }
        return parseDocument(attachment, name, options, depth + 1);
      });
  }
}

async function readHtml(bytes: Uint8Array): Promise<ExtractedDocument> {
  const { htmlToPage } = await import('./html.ts');
  const page = htmlToPage(decodeText(bytes, { markup: true }));
  return page.title
    ? { pages: [{ page: 1, text: page.text, title: page.title }], title: page.title }
    : { pages: [{ page: 1, text: page.text }] };
}

function finish(
  document: ExtractedDocument,
  format: SupportedExtension,
  fileName: string,
): ExtractedDocument {
  const pages = document.pages.map((page) => ({ ...page, text: normalizeText(page.text) }));
  if (pages.every((page) => !page.text)) {
    const detail =
      format === '.pdf'
        ? 'no text could be extracted: its pages hold neither text nor a scanned image to read'
        : 'the file contains no text';
    throw ExtractionError.cannotRead(fileName, 'no_text', detail);
  }
  const title = document.title && normalizeText(document.title).replace(/\n+/g, ' ');
  const warnings = document.warnings?.length ? { warnings: document.warnings } : {};
  return title ? { pages, title, ...warnings } : { pages, ...warnings };
}
