export {
  type CrawlOptions,
  type CrawlResult,
  type CrawlSkip,
  crawlWebsite,
  type SkipReason,
} from './crawl.ts';
export { FetchError } from './errors.ts';
export { type FetchFailure, fetchDocument, fetchPages } from './fetch.ts';
export type { FetchOptions } from './http.ts';
