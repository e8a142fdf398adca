import type { RecognitionOptions } from '../extract/index.ts';
import type { ExtractedDocument, ExtractedPage } from '../types.ts';
import { asSinglePage, readResponse } from './document.ts';
import { FetchError } from './errors.ts';
import { sharedHtmlExtractor } from './html-pool.ts';
import { createWebClient, type FetchOptions } from './http.ts';
import { mapConcurrent } from './pool.ts';

export interface FetchFailure {
  url: string;
  message: string;
}

/** One address → its page(s): HTML → main text; an address of a supported file type is read as that file. */
export async function fetchDocument(
  url: string,
  options: FetchOptions & { recognition?: RecognitionOptions | false | undefined } = {},
): Promise<ExtractedDocument> {
  const client = createWebClient(options);
  try {
    return await readResponse(await client.open(url), undefined, options.recognition);
  } finally {
    await client.close();
  }
}

/**
 * `urls` sources: the address at position n (1-based) becomes page n, so page numbers always match the
 * list the user gave. An address that fails is left out and reported in `failures`, leaving a gap in the
 * numbering; only when every address fails does the whole call fail, with the first failure's reason.
 */
export async function fetchPages(
  urls: string[],
  options: FetchOptions & { concurrency?: number; recognition?: RecognitionOptions | false | undefined } = {},
): Promise<{ document: ExtractedDocument; failures: FetchFailure[] }> {
  const client = createWebClient(options);
  try {
    const outcomes = await mapConcurrent(urls, options.concurrency ?? 4, async (url, index) => {
      try {
        return {
          page: asSinglePage(
            await readResponse(await client.open(url), sharedHtmlExtractor.extract, options.recognition),
            index + 1,
            url,
          ),
        };
      } catch (error) {
        if (options.signal?.aborted) throw error;
        return { failure: { url, message: error instanceof Error ? error.message : String(error) } };
      }
    });
    const pages = outcomes.flatMap((outcome): ExtractedPage[] => ('page' in outcome ? [outcome.page] : []));
    const failures = outcomes.flatMap((outcome): FetchFailure[] =>
      'failure' in outcome ? [outcome.failure] : [],
    );
    const firstFailure = failures[0];
    if (pages.length === 0 && firstFailure) {
      throw new FetchError(
        firstFailure.url,
        urls.length === 1
          ? firstFailure.message
          : `none of the ${urls.length} addresses could be read; the first failure: ${firstFailure.message}`,
      );
    }
    return { document: { pages }, failures };
  } finally {
    await client.close();
  }
}
