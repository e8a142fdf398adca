import type { WebPage } from '../../web-page.ts';
import type { RecognitionOptions } from '../extract/index.ts';
import type { Readers } from '../readers.ts';
import type { ExtractedDocument } from '../types.ts';
import { asSinglePage, readResponse } from './document.ts';
import { FetchError } from './errors.ts';
import { createWebClient, type FetchOptions } from './http.ts';
import { mapConcurrent } from './map-concurrent.ts';
import {
  asExtractedPage,
  documentOf,
  isGone,
  type PreviousFetches,
  responseValidators,
  validatorsOf,
} from './previous.ts';

export interface FetchFailure {
  url: string;
  message: string;
}

/** A web document, with the pages a later sync needs (previous.ts) and how many addresses were unchanged. */
export interface FetchedDocument {
  document: ExtractedDocument;
  pages: WebPage[];
  /** Addresses the server said had not changed (304): their pages are the last version's. */
  notModified: number;
}

export interface ReadOptions extends FetchOptions {
  /** Read what the responses hold in workers. */
  readers: Readers;
  recognition?: RecognitionOptions | false | undefined;
  /** What the last version read, by address: asked again with its validators. */
  previous?: PreviousFetches | undefined;
}

/** One address → its page(s): HTML → main text; an address of a supported file type is read as that file. */
export async function fetchDocument(url: string, options: ReadOptions): Promise<ExtractedDocument> {
  return (await readAddress(url, options)).document;
}

/** `url` sources (and files by URL): one address, asked with the last version's validators when there is one. */
export async function readAddress(url: string, options: ReadOptions): Promise<FetchedDocument> {
  const client = createWebClient(options);
  try {
    const previous = options.previous?.get(url);
    const response = await client.open(url, undefined, validatorsOf(previous));
    if (response.status === 304 && previous)
      return { document: documentOf(previous.pages), pages: previous.pages, notModified: 1 };
    const validators = responseValidators(response);
    const document = await readResponse(response, options.readers, options.recognition);
    const pages = document.pages.map((page) => ({
      position: page.page,
      address: url,
      url: page.url ?? url,
      title: page.title,
      text: page.text,
      links: [],
      ...validators,
    }));
    return { document, pages, notModified: 0 };
  } finally {
    await client.close();
  }
}

/**
 * `urls` sources: the address at position n (1-based) becomes page n, so page numbers always match the
 * list the user gave. An address that fails is left out and reported in `failures`, leaving a gap in the
 * numbering, unless the last version has it and it is not gone (404, 410): then that version stays, and the
 * failure is reported in `kept`. Only when every address fails does the whole call fail, with the first
 * failure's reason.
 */
export async function fetchPages(
  urls: string[],
  options: ReadOptions & { concurrency?: number },
): Promise<FetchedDocument & { failures: FetchFailure[]; kept: FetchFailure[] }> {
  const client = createWebClient(options);
  try {
    const outcomes = await mapConcurrent(urls, options.concurrency ?? 4, async (url, index) => {
      const previous = options.previous?.get(url);
      try {
        const response = await client.open(url, undefined, validatorsOf(previous));
        if (response.status === 304 && previous) {
          return { page: { ...previous.pages[0]!, position: index + 1 }, notModified: true };
        }
        const validators = responseValidators(response);
        const page = asSinglePage(
          await readResponse(response, options.readers, options.recognition),
          index + 1,
          url,
        );
        const fetched: WebPage = {
          position: index + 1,
          address: url,
          url: page.url ?? url,
          title: page.title,
          text: page.text,
          links: [],
          ...validators,
        };
        return { page: fetched, notModified: false };
      } catch (error) {
        if (options.signal?.aborted) throw error;
        const failure = { url, message: error instanceof Error ? error.message : String(error) };
        if (previous && !isGone(error))
          return { page: { ...previous.pages[0]!, position: index + 1 }, notModified: false, kept: failure };
        return { failure };
      }
    });
    const fetched = outcomes.flatMap((outcome) => ('page' in outcome ? [outcome.page] : []));
    const failures = outcomes.flatMap((outcome): FetchFailure[] =>
      'failure' in outcome ? [outcome.failure] : [],
    );
    const kept = outcomes.flatMap((outcome): FetchFailure[] =>
      'kept' in outcome && outcome.kept ? [outcome.kept] : [],
    );
    const firstFailure = failures[0] ?? kept[0];
    if (failures.length + kept.length === urls.length && firstFailure) {
      throw new FetchError(
        firstFailure.url,
        urls.length === 1
          ? firstFailure.message
          : `none of the ${urls.length} addresses could be read; the first failure: ${firstFailure.message}`,
      );
    }
    return {
      document: { pages: fetched.map((page) => asExtractedPage(page, page.position)) },
      pages: fetched,
      notModified: outcomes.filter((outcome) => 'notModified' in outcome && outcome.notModified).length,
      failures,
      kept,
    };
  } finally {
    await client.close();
  }
}
