import { extractFile } from './extract/index.ts';
import type { ExtractedDocument } from './types.ts';
import { crawlWebsite } from './web/crawl.ts';
import { fetchDocument, fetchPages } from './web/fetch.ts';
import type { FetchOptions } from './web/http.ts';

export interface LoadOptions {
  fetch: FetchOptions;
  extractTimeoutMs: number;
  crawlMaxPages: number;
  crawlMaxDepth: number;
  signal: AbortSignal;
}

/** What a source's content points at, resolved by the caller (a stored file's path, or web addresses). */
export type SourceInput =
  | { kind: 'text'; text: string }
  | { kind: 'file'; path: string; name: string }
  | { kind: 'url'; url: string }
  | { kind: 'urls'; urls: string[] }
  | { kind: 'website'; url: string };

export interface LoadedDocument {
  document: ExtractedDocument;
  /** Pages that could not be read although the source as a whole could, for the user to see. */
  warnings: string[];
}

export async function loadDocument(input: SourceInput, options: LoadOptions): Promise<LoadedDocument> {
  const fetchOptions = { ...options.fetch, signal: options.signal };
  switch (input.kind) {
    case 'text':
      return { document: { pages: [{ page: 1, text: input.text }] }, warnings: [] };
    case 'file':
      return {
        document: await extractFile(input.path, input.name, {
          timeoutMs: options.extractTimeoutMs,
          signal: options.signal,
        }),
        warnings: [],
      };
    case 'url':
      return { document: await fetchDocument(input.url, fetchOptions), warnings: [] };
    case 'urls': {
      const { document, failures } = await fetchPages(input.urls, fetchOptions);
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
