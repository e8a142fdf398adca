import { extname } from 'node:path';
import { isSupportedExtension, type SupportedExtension } from '../../../src/api/files.ts';
import { decodeText } from '../decode-text.ts';
import type { RecognitionOptions } from '../extract/index.ts';
import type { Readers } from '../readers.ts';
import type { ExtractedDocument, ExtractedPage } from '../types.ts';
import { FetchError } from './errors.ts';
import type { OpenResponse } from './http.ts';

const htmlMediaTypes = new Set(['text/html', 'application/xhtml+xml']);
const mediaTypeExtensions: Record<string, SupportedExtension> = {
  'text/html': '.html',
  'application/xhtml+xml': '.html',
  'application/pdf': '.pdf',
  'application/msword': '.doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': '.docx',
  'application/vnd.ms-powerpoint': '.ppt',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': '.pptx',
  'text/markdown': '.md',
  'text/x-markdown': '.md',
  'application/json': '.json',
  'message/rfc822': '.eml',
  'text/plain': '.txt',
};
/** Types servers send when they do not know better; the address's extension decides then. */
const vagueMediaTypes = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'text/plain']);

export type Reading =
  | { kind: 'html' }
  | { kind: 'file'; extension: SupportedExtension }
  | { kind: 'unreadable' };

/** Decides how to read a response: Content-Type first, the address's extension when the type is vague. */
export function classifyResponse(url: string, mediaType: string): Reading {
  const pathExtension = extensionOf(url);
  const byPath =
    pathExtension === '.htm' ? '.html' : isSupportedExtension(pathExtension) ? pathExtension : undefined;
  const byType = mediaTypeExtensions[mediaType];
  if (htmlMediaTypes.has(mediaType)) return { kind: 'html' };
  if (vagueMediaTypes.has(mediaType) && byPath) {
    return byPath === '.html' ? { kind: 'html' } : { kind: 'file', extension: byPath };
  }
  if (byType) return { kind: 'file', extension: byType };
  if (mediaType === '') return { kind: 'html' };
  if (mediaType.startsWith('text/')) return { kind: 'file', extension: '.txt' };
  return { kind: 'unreadable' };
}

function extensionOf(url: string): string {
  try {
    return extname(decodeURIComponent(new URL(url).pathname)).toLowerCase();
  } catch {
    return '';
  }
}

function unreadableError(url: string, mediaType: string): FetchError {
  return new FetchError(
    url,
    `${url} is ${mediaType || 'of an unknown type'}, which ckb cannot read (it reads web pages and PDF, Word, PowerPoint, Markdown, JSON, e-mail and text files)`,
  );
}

/** Reads an opened response as a document in a worker: HTML as a page, anything else as the file it is. */
export async function readResponse(
  response: OpenResponse,
  readers: Readers,
  recognition: RecognitionOptions | false | undefined,
): Promise<ExtractedDocument> {
  const reading = classifyResponse(response.url, response.mediaType);
  if (reading.kind === 'unreadable') {
    response.discard();
    throw unreadableError(response.url, response.mediaType);
  }
  const bytes = await response.read();
  if (reading.kind === 'html') {
    const page = await readers.html.extract(
      decodeText(bytes, { charset: response.charset, markup: true }),
      response.url,
    );
    return {
      pages: [{ page: 1, text: page.text, url: response.url, ...titled(page.title) }],
      ...titled(page.title),
    };
  }
  const document = await readers.files.extractBuffer(bytes, fileNameFor(response.url, reading.extension), {
    recognition,
  });
  return { ...document, pages: document.pages.map((page) => ({ ...page, url: response.url })) };
}

export function titled(title: string | undefined): { title?: string } {
  return title ? { title } : {};
}

function fileNameFor(url: string, extension: SupportedExtension): string {
  const segment = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '') || 'download';
  return extname(segment).toLowerCase() === extension ? segment : `${segment}${extension}`;
}

/** Folds a multi-page file (a PDF behind one address) into the single page that address stands for. */
export function asSinglePage(document: ExtractedDocument, page: number, url: string): ExtractedPage {
  const text = document.pages.map((entry) => entry.text).join('\n\n');
  const title = document.title ?? document.pages[0]?.title;
  return { page, text, url: document.pages[0]?.url ?? url, ...titled(title) };
}
