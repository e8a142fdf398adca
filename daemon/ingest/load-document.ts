import type { WebPage } from '../web-page.ts';
import type { RecognitionOptions } from './extract/index.ts';
import type { Readers } from './readers.ts';
import type { ExtractedDocument } from './types.ts';
import { crawlWebsite } from './web/crawl.ts';
import { type FetchFailure, fetchPages, readAddress } from './web/fetch.ts';
import type { FetchOptions } from './web/http.ts';
import type { PreviousFetches } from './web/previous.ts';

export interface LoadOptions {
  /** The worker pools that read pages and files. */
  readers: Readers;
  fetch: FetchOptions;
  /** How the scanned pages of a PDF behind an address are recognised (see extract/pdf-ocr.ts). */
  recognition?: RecognitionOptions | false | undefined;
  crawlMaxPages: number;
  crawlMaxDepth: number;
  signal: AbortSignal;
  /** What the last version of the source read, by address: a sync asks each again with its validators. */
  previous?: PreviousFetches | undefined;
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
  /** Web documents: their pages with what the next sync needs, and how many the server said were unchanged. */
  web?: { pages: WebPage[]; notModified: number };
}

/** A page that failed for a passing reason keeps its last version, and the user hears of it. */
function keptWarnings(kept: FetchFailure[]): string[] {
  return kept.map((failure) => `${failure.message} (its last version is kept)`);
}

export async function loadDocument(input: DocumentInput, options: LoadOptions): Promise<LoadedDocument> {
  const fetchOptions = { ...options.fetch, signal: options.signal };
  switch (input.kind) {
    case 'text':
      return { document: { pages: [{ page: 1, text: input.text }] }, warnings: [] };
    case 'url': {
      const { document, pages, notModified } = await readAddress(input.url, {
        ...fetchOptions,
        readers: options.readers,
        recognition: options.recognition,
        previous: options.previous,
      });
      return { document, warnings: [], web: { pages, notModified } };
    }
    case 'urls': {
      const { document, failures, kept, pages, notModified } = await fetchPages(input.urls, {
        ...fetchOptions,
        readers: options.readers,
        recognition: options.recognition,
        previous: options.previous,
      });
      return {
        document,
        warnings: [...failures.map((failure) => failure.message), ...keptWarnings(kept)],
        web: { pages, notModified },
      };
    }
    case 'website': {
      const result = await crawlWebsite(input.url, {
        ...fetchOptions,
        html: options.readers.html,
        maxPages: options.crawlMaxPages,
        maxDepth: options.crawlMaxDepth,
        previous: options.previous,
      });
      return {
        document: result.document,
        warnings: [...result.failures.map((failure) => failure.message), ...keptWarnings(result.kept)],
        web: { pages: result.pages, notModified: result.notModified },
      };
    }
  }
}
