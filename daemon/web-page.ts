/**
 * A page of a web source as read (or found unchanged), with what the next sync needs: the address to ask
 * again, the validators to ask with, and, should the server answer that nothing changed, the page itself.
 * Fetching makes it and the store keeps it with the version of the source it went into (SourcePageTable).
 */
export interface WebPage {
  /** The page's number in the source. */
  position: number;
  /** The address requested. */
  address: string;
  /** The address after redirects. */
  url: string;
  canonicalUrl?: string | undefined;
  title?: string | undefined;
  text: string;
  /** The page's links, for a crawl that follows them; empty for other sources. */
  links: string[];
  etag?: string | undefined;
  lastModified?: string | undefined;
}
