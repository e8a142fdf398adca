import type { RecognitionOptions } from './extract/index.ts';
import type { ExtractedDocument } from './types.ts';
import { crawlWebsite } from './web/crawl.ts';
import { fetchDocument, fetchPages } from './web/fetch.ts';
import type { FetchOptions } from './web/http.ts';

export interface LoadOptions {
  fetch: FetchOptions;
  /** How the scanned pages of a PDF behind an address are recognised (see extract/pdf-ocr.ts). */
  recognition?: RecognitionOptions | false | undefined;
  crawlMaxPages: number;
  crawlMaxDepth: number;
  signal: AbortSignal;
}

/** Content whose document is made on the main thread: typed text, or pages fetched from the web. */
export type DocumentInput =
  | { kind: 'text'; text: string }
  | { kind: 'url'; url: string }
  | { kind: 'urls'; urls: string[] }
  | { kind: 'website'; url: string };

export interface LoadedDocument {
  document: ExtractedDocument;
  /** Pages that could not be read although the source as a whole could, for the user to see. */
  warnings: string[];
}

export async function loadDocument(input: DocumentInput, options: LoadOptions): Promise<LoadedDocument> {
  const fetchOptions = { ...options.fetch, signal: options.signal };
  switch (input.kind) {
    case 'text':
      return { document: { pages: [{ page: 1, text: input.text }] }, warnings: [] };
    case 'url':
      return {
        document: await fetchDocument(input.url, { ...fetchOptions, recognition: options.recognition }),
        warnings: [],
      };
    case 'urls': {
      const { document, failures } = await fetchPages(input.urls, {
        ...fetchOptions,
        recognition: options.recognition,
      });
      return { document, warnings: failures.map((failure) => failure.message) };
    }
    case 'website': {
      const result = await crawlWebsite(input.url, {
        ...fetchOptions,
        maxPages: options.crawlMaxPages,
        maxDepth: options.crawlMaxDepth,
      });
      return { document: result.document, warnings: result.failures.map((failure) => failure.message) };
    }
  }
}
