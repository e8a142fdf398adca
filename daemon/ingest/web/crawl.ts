import { createHash } from 'node:crypto';
import { extname } from 'node:path';
import type { WebPage } from '../../web-page.ts';
import { decodeText } from '../decode-text.ts';
import type { ExtractedDocument, ExtractedPage } from '../types.ts';
import { classifyResponse, titled } from './document.ts';
import { FetchError } from './errors.ts';
import type { FetchFailure } from './fetch.ts';
import type { HtmlExtractor } from './html-pool.ts';
import {
  createWebClient,
  defaultUserAgent,
  type FetchOptions,
  parseHttpUrl,
  type WebClient,
} from './http.ts';
import {
  isGone,
  type PreviousFetch,
  type PreviousFetches,
  responseValidators,
  validatorsOf,
} from './previous.ts';
import { type RobotsRules, readRobots } from './robots.ts';
import { readSitemaps, sameOrigin } from './sitemap.ts';

export interface CrawlOptions extends FetchOptions {
  /** Reads each page's HTML in a worker. */
  html: HtmlExtractor;
  /** Default 200. */
  maxPages?: number;
  /** Link distance from the start page (depth 0). Sitemap pages count as depth 1. Default 3. */
  maxDepth?: number;
  /** Default 4. A crawl stays on one origin, so this is the crawl's whole concurrency. */
  concurrencyPerHost?: number;
  /** Called after each page is kept, with the number kept so far. */
  onPage?: (count: number) => void;
  /** What the last version read, by address: each page is asked again with its validators. */
  previous?: PreviousFetches | undefined;
}

export type SkipReason = 'disallowed-by-robots' | 'duplicate' | 'not-html' | 'off-site-redirect' | 'no-text';

/** A page deliberately left out. Off-site links and links to images, scripts, styles and files are not listed. */
export interface CrawlSkip {
  url: string;
  reason: SkipReason;
}

export interface CrawlResult {
  document: ExtractedDocument;
  failures: FetchFailure[];
  skipped: CrawlSkip[];
  /** Whether the pages came from the site's sitemap or from following links. */
  mode: 'sitemap' | 'links';
  /** The kept pages with what the next sync needs (previous.ts), in page order. */
  pages: WebPage[];
  /** Pages the server said had not changed (304). */
  notModified: number;
  /** Pages that failed for a passing reason and whose last version was kept instead. */
  kept: FetchFailure[];
}

/** Addresses that are never HTML pages, dropped before any request. */
const nonPageExtensions = new Set(
  (
    'png jpg jpeg gif webp svg ico bmp tif tiff avif css js mjs map json xml txt md rst csv tsv pdf doc docx ' +
    'ppt pptx xls xlsx odt ods odp rtf epub zip gz tgz tar bz2 xz 7z rar exe dmg iso bin deb rpm msi apk ' +
    'woff woff2 ttf otf eot mp3 mp4 m4a wav ogg oga webm avi mov mkv flac py rb c h cpp java go rs sh ts ' +
    'inv puml rss atom wasm'
  )
    .split(' ')
    .map((extension) => `.${extension}`),
);

interface Candidate {
  url: string;
  depth: number;
}

type Outcome =
  | {
      kind: 'page';
      /** The address asked for, which names the page in skip reports. */
      requestedUrl: string;
      /** The address after redirects. */
      url: string;
      text: string;
      title?: string;
      canonicalUrl?: string;
      links: string[];
      etag?: string | undefined;
      lastModified?: string | undefined;
      /** The page is the last version's: the server said it had not changed, or it failed for a passing reason. */
      from?: 'not-modified' | 'kept';
    }
  | { kind: 'skip'; skip: CrawlSkip }
  | { kind: 'failure'; failure: FetchFailure };

interface CrawlState {
  html: HtmlExtractor;
  origin: string;
  robots: RobotsRules;
  /** Addresses queued or fetched, so each is requested once. */
  seen: Set<string>;
  /** Addresses of kept pages (as fetched, after redirects, and as their canonical address). */
  kept: Set<string>;
  contentHashes: Set<string>;
  pages: ExtractedPage[];
  fetched: WebPage[];
  failures: FetchFailure[];
  skipped: CrawlSkip[];
  previous: PreviousFetches;
  notModified: number;
  keptFailures: FetchFailure[];
}

/** `website` sources: a same-origin crawl from `startUrl`, from the sitemap when there is one, else by links. */
export async function crawlWebsite(startUrl: string, options: CrawlOptions): Promise<CrawlResult> {
  const maxPages = options.maxPages ?? 200;
  const maxDepth = options.maxDepth ?? 3;
  const concurrency = options.concurrencyPerHost ?? 4;
  const userAgent = options.userAgent ?? defaultUserAgent;
  const client = createWebClient(options);
  try {
    const start = parseHttpUrl(startUrl);
    const state = await beginCrawl(client, start, userAgent, options.html, options.previous ?? new Map());
    // A start page that cannot be read fails the sync, whatever its last version: the site may be down.
    const startOutcome = await fetchPage(client, state, start.href, {
      anyOrigin: true,
      keepOnFailure: false,
    });
    if (startOutcome.kind === 'failure') {
      throw new FetchError(startOutcome.failure.url, startOutcome.failure.message);
    }
    await adoptRedirectedOrigin(client, state, startOutcome, userAgent);
    const next = accept(state, [startOutcome], options.onPage);
    const startSkip = state.skipped[0];
    if (state.pages.length === 0 && startSkip) throw startPageError(startSkip, state.origin);
    const sitemapPages = maxDepth >= 1 ? await sitemapCandidates(client, state) : [];
    const mode = sitemapPages.length > 0 ? 'sitemap' : 'links';
    let level = mode === 'sitemap' ? sitemapPages : next.map((url) => ({ url, depth: 1 }));
    while (level.length > 0 && state.pages.length < maxPages && (level[0]?.depth ?? 0) <= maxDepth) {
      const links = await crawlLevel(client, state, enqueue(state, level), {
        maxPages,
        concurrency,
        onPage: options.onPage,
      });
      const depth = (level[0]?.depth ?? 0) + 1;
      level = mode === 'links' ? links.map((url) => ({ url, depth })) : [];
    }
    return {
      document: { pages: state.pages, ...titled(state.pages[0]?.title) },
      failures: state.failures,
      skipped: state.skipped,
      mode,
      pages: state.fetched,
      notModified: state.notModified,
      kept: state.keptFailures,
    };
  } finally {
    await client.close();
  }
}

function startPageError(skip: CrawlSkip, origin: string): FetchError {
  const messages: Record<SkipReason, string> = {
    'disallowed-by-robots': `the robots.txt of ${origin} forbids crawling ${skip.url}`,
    'not-html': `${skip.url} is not a web page, and a crawl starts from an HTML page`,
    'no-text': `${skip.url} has no readable text`,
    duplicate: `${skip.url} repeats another page`,
    'off-site-redirect': `${skip.url} redirects to another site`,
  };
  return new FetchError(skip.url, messages[skip.reason]);
}

async function beginCrawl(
  client: WebClient,
  start: URL,
  userAgent: string,
  html: HtmlExtractor,
  previous: PreviousFetches,
): Promise<CrawlState> {
  const robots = await readRobots(client, start.origin, userAgent);
  if (!robots.allows(start.href)) {
    throw new FetchError(start.href, `the robots.txt of ${start.origin} forbids crawling ${start.href}`);
  }
  return {
    html,
    origin: start.origin,
    robots,
    seen: new Set([start.href]),
    kept: new Set(),
    contentHashes: new Set(),
    pages: [],
    fetched: [],
    failures: [],
    skipped: [],
    previous,
    notModified: 0,
    keptFailures: [],
  };
}

/** A start address that redirects elsewhere (http → https, bare domain → www) moves the whole crawl there. */
async function adoptRedirectedOrigin(
  client: WebClient,
  state: CrawlState,
  outcome: Outcome,
  userAgent: string,
) {
  if (outcome.kind !== 'page') return;
  const origin = new URL(outcome.url).origin;
  if (origin === state.origin) return;
  state.origin = origin;
  state.robots = await readRobots(client, origin, userAgent);
  if (!state.robots.allows(outcome.url)) {
    throw new FetchError(outcome.url, `the robots.txt of ${origin} forbids crawling ${outcome.url}`);
  }
}

async function sitemapCandidates(client: WebClient, state: CrawlState): Promise<Candidate[]> {
  const declared = state.robots.sitemaps.filter((url) => sameOrigin(url, state.origin));
  const sitemapUrls = declared.length > 0 ? declared : [`${state.origin}/sitemap.xml`];
  const urls = await readSitemaps(client, sitemapUrls, state.origin);
  return urls.map((url) => ({ url, depth: 1 }));
}

/** Keeps the candidates worth a request: new, same-origin, page-like and allowed by robots.txt. */
function enqueue(state: CrawlState, candidates: Candidate[]): string[] {
  const queued: string[] = [];
  for (const candidate of candidates) {
    const key = addressKey(candidate.url);
    if (key === undefined || state.seen.has(key) || !sameOrigin(key, state.origin)) continue;
    state.seen.add(key);
    if (nonPageExtensions.has(extname(new URL(key).pathname).toLowerCase())) continue;
    if (!state.robots.allows(key)) {
      state.skipped.push({ url: key, reason: 'disallowed-by-robots' });
      continue;
    }
    queued.push(key);
  }
  return queued;
}

/**
 * Fetches one breadth-first level. Requests run concurrently, but results are kept in queue order, so
 * page numbers and de-duplication do not depend on which server answer came first. No more requests
 * are started than the page limit can still use.
 */
async function crawlLevel(
  client: WebClient,
  state: CrawlState,
  urls: string[],
  settings: { maxPages: number; concurrency: number; onPage: ((count: number) => void) | undefined },
): Promise<string[]> {
  const links: string[] = [];
  let cursor = 0;
  while (cursor < urls.length && state.pages.length < settings.maxPages) {
    const remaining = settings.maxPages - state.pages.length;
    const outcomes: Outcome[] = [];
    let started = cursor;
    let pagesFound = 0;
    let inFlight = 0;
    const worker = async () => {
      while (started < urls.length && pagesFound + inFlight < remaining) {
        const index = started++;
        inFlight++;
        const outcome = await fetchPage(client, state, urls[index]!);
        inFlight--;
        if (outcome.kind === 'page') pagesFound++;
        outcomes[index - cursor] = outcome;
      }
    };
    await Promise.all(Array.from({ length: settings.concurrency }, worker));
    cursor = started;
    links.push(...accept(state, outcomes, settings.onPage, settings.maxPages));
  }
  return links;
}

async function fetchPage(
  client: WebClient,
  state: CrawlState,
  url: string,
  { anyOrigin = false, keepOnFailure = true } = {},
): Promise<Outcome> {
  const previous = state.previous.get(url);
  try {
    const response = await client.open(url, undefined, validatorsOf(previous));
    const skip = (reason: SkipReason): Outcome => {
      response.discard();
      return { kind: 'skip', skip: { url, reason } };
    };
    const finalUrl = response.status === 304 && previous ? previous.pages[0]!.url : response.url;
    if (!anyOrigin && !sameOrigin(finalUrl, state.origin)) return skip('off-site-redirect');
    if (!state.robots.allows(finalUrl)) return skip('disallowed-by-robots');
    if (response.status === 304 && previous) return lastVersion(url, previous, 'not-modified');
    if (classifyResponse(response.url, response.mediaType).kind !== 'html') return skip('not-html');
    const page = await state.html.extract(
      decodeText(await response.read(), { charset: response.charset, markup: true }),
      response.url,
    );
    return { kind: 'page', requestedUrl: url, url: response.url, ...page, ...responseValidators(response) };
  } catch (error) {
    if (!(error instanceof Error) || error.name === 'AbortError' || error.name === 'TimeoutError')
      throw error;
    const failure = { url, message: error.message };
    if (previous && keepOnFailure && !isGone(error)) {
      state.keptFailures.push(failure);
      return lastVersion(url, previous, 'kept');
    }
    return { kind: 'failure', failure };
  }
}

/** A page as the last version read it, which the crawl goes on from as if it had just been read. */
function lastVersion(url: string, previous: PreviousFetch, from: 'not-modified' | 'kept'): Outcome {
  const page = previous.pages[0]!;
  return {
    kind: 'page',
    requestedUrl: url,
    url: page.url,
    text: page.text,
    ...titled(page.title),
    ...(page.canonicalUrl ? { canonicalUrl: page.canonicalUrl } : {}),
    links: page.links,
    etag: previous.etag,
    lastModified: previous.lastModified,
    from,
  };
}

/** Records outcomes in order: numbers new pages, drops duplicates, and returns the kept pages' links. */
function accept(
  state: CrawlState,
  outcomes: Outcome[],
  onPage: ((count: number) => void) | undefined,
  maxPages = Number.POSITIVE_INFINITY,
): string[] {
  const links: string[] = [];
  for (const outcome of outcomes) {
    if (outcome.kind === 'failure') state.failures.push(outcome.failure);
    if (outcome.kind === 'skip') state.skipped.push(outcome.skip);
    if (outcome.kind !== 'page' || state.pages.length >= maxPages) continue;
    const reason = rejection(state, outcome);
    if (reason) {
      state.skipped.push({ url: outcome.requestedUrl, reason });
      continue;
    }
    const url = canonicalAddress(state, outcome) ?? outcome.url;
    state.kept.add(addressKey(outcome.url)!).add(url);
    state.seen.add(addressKey(outcome.url)!).add(url);
    state.contentHashes.add(contentHash(outcome));
    state.pages.push({ page: state.pages.length + 1, text: outcome.text, url, ...titled(outcome.title) });
    state.fetched.push({
      position: state.pages.length,
      address: outcome.requestedUrl,
      url: outcome.url,
      canonicalUrl: outcome.canonicalUrl,
      title: outcome.title,
      text: outcome.text,
      links: outcome.links,
      etag: outcome.etag,
      lastModified: outcome.lastModified,
    });
    if (outcome.from === 'not-modified') state.notModified += 1;
    onPage?.(state.pages.length);
    links.push(...outcome.links);
  }
  return links;
}

function rejection(state: CrawlState, page: Extract<Outcome, { kind: 'page' }>): SkipReason | undefined {
  if (!page.text.trim()) return 'no-text';
  if (state.kept.has(addressKey(page.url)!)) return 'duplicate';
  const canonical = canonicalAddress(state, page);
  if (canonical && state.kept.has(canonical)) return 'duplicate';
  // `/` and `/index.html`, or `/a` and `/a/`, are one page only when they serve the same content.
  if (state.contentHashes.has(contentHash(page))) return 'duplicate';
  return undefined;
}

/** A same-origin `rel=canonical` the crawl may use; off-site ones (mirrors naming their upstream) are ignored. */
function canonicalAddress(state: CrawlState, page: Extract<Outcome, { kind: 'page' }>): string | undefined {
  const canonical = page.canonicalUrl ? addressKey(page.canonicalUrl) : undefined;
  if (!canonical || !sameOrigin(canonical, state.origin) || !state.robots.allows(canonical)) return undefined;
  return canonical;
}

function contentHash(page: { text: string; title?: string }): string {
  return createHash('sha256')
    .update(`${page.title ?? ''}\n${page.text}`)
    .digest('hex');
}

/** The address without its fragment, which names a place in a page, not another page. */
function addressKey(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    parsed.hash = '';
    return parsed.href;
  } catch {
    return undefined;
  }
}
