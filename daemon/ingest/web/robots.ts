import robotsParserModule from 'robots-parser';
import { decodeText } from '../decode-text.ts';
import { FetchError } from './errors.ts';
import type { WebClient } from './http.ts';

// The package is CommonJS exporting the function itself, while its types declare an ES default export.
const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;

export interface RobotsRules {
  allows(url: string): boolean;
  /** Sitemap addresses the file names. */
  sitemaps: string[];
}

/**
 * Reads `/robots.txt` as RFC 9309 says: a 4xx answer means no rules, but a server error or an
 * unreachable file means the rules are unknown, so the crawl must not go on.
 */
export async function readRobots(client: WebClient, origin: string, userAgent: string): Promise<RobotsRules> {
  const robotsUrl = `${origin}/robots.txt`;
  let text: string;
  try {
    const response = await client.open(robotsUrl, 'text/plain,*/*;q=0.5');
    text = decodeText(await response.read(), { charset: response.charset });
  } catch (error) {
    if (!(error instanceof FetchError) || error.status === undefined) throw error;
    if (error.status < 500) return { allows: () => true, sitemaps: [] };
    throw new FetchError(robotsUrl, `${error.message}, so the site's crawl rules are unknown`, {
      cause: error,
      status: error.status,
    });
  }
  const robots = robotsParser(robotsUrl, text);
  // robots.txt groups are matched by the product token alone ("ckb" in "ckb/0.1 (...)").
  const token = userAgent.split(/[/\s]/)[0] ?? userAgent;
  return {
    allows: (url) => robots.isAllowed(url, token) !== false,
    sitemaps: robots.getSitemaps(),
  };
}
