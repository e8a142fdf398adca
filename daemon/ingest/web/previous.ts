import type { WebPage } from '../../web-page.ts';
import type { ExtractedDocument, ExtractedPage } from '../types.ts';
import { titled } from './document.ts';
import { FetchError } from './errors.ts';
import type { OpenResponse, Validators } from './http.ts';

/** What the last version of a source read at one address: the validators it got, and the page(s) it made. */
export interface PreviousFetch extends Validators {
  pages: WebPage[];
}

export type PreviousFetches = ReadonlyMap<string, PreviousFetch>;

/** The last version's pages by the address they were read from (a PDF behind one address gives several). */
export function previousFetches(pages: readonly WebPage[]): Map<string, PreviousFetch> {
  const byAddress = new Map<string, PreviousFetch>();
  for (const page of pages) {
    const known = byAddress.get(page.address);
    if (known) known.pages.push(page);
    else byAddress.set(page.address, { etag: page.etag, lastModified: page.lastModified, pages: [page] });
  }
  return byAddress;
}

export function validatorsOf(previous: PreviousFetch | undefined): Validators {
  return previous ? { etag: previous.etag, lastModified: previous.lastModified } : {};
}

/** The validators a response carried, to keep beside the page for the next sync. */
export function responseValidators(response: OpenResponse): Validators {
  return { etag: response.etag, lastModified: response.lastModified };
}

/** The pages an unchanged address gave last time, as a document. */
export function documentOf(pages: readonly WebPage[]): ExtractedDocument {
  return {
    pages: pages.map((page) => asExtractedPage(page, page.position)),
    ...titled(pages[0]?.title),
  };
}

export function asExtractedPage(page: WebPage, position: number): ExtractedPage {
  return { page: position, text: page.text, url: page.url, ...titled(page.title) };
}

/**
 * Whether a failed page is gone for good (404 Not Found, 410 Gone), and leaves the source; any other failure
 * (a timeout, a server error) keeps the page's last version rather than drop it for a passing fault.
 */
export function isGone(error: unknown): boolean {
  return error instanceof FetchError && (error.status === 404 || error.status === 410);
}
