import { gunzipSync } from 'node:zlib';
import { decodeText } from '../decode-text.ts';
import type { WebClient } from './http.ts';

const maxSitemapFiles = 50;

/**
 * Collects the page addresses of a site's sitemaps, following sitemap index files. Sitemaps that are
 * missing or unreadable count as absent: the crawl then follows links instead.
 */
export async function readSitemaps(
  client: WebClient,
  sitemapUrls: string[],
  origin: string,
): Promise<string[]> {
  const pending = [...sitemapUrls];
  const visited = new Set<string>();
  const pages = new Set<string>();
  while (pending.length > 0 && visited.size < maxSitemapFiles) {
    const sitemapUrl = pending.shift()!;
    if (visited.has(sitemapUrl) || !sameOrigin(sitemapUrl, origin)) continue;
    visited.add(sitemapUrl);
    const xml = await readSitemapFile(client, sitemapUrl);
    if (xml === undefined) continue;
    const target = /<sitemapindex[\s>]/i.test(xml) ? pending : undefined;
    for (const location of locations(xml)) {
      if (!sameOrigin(location, origin)) continue;
      if (target) target.push(location);
      else pages.add(location);
    }
  }
  return [...pages];
}

async function readSitemapFile(client: WebClient, url: string): Promise<string | undefined> {
  try {
    const response = await client.open(url, 'application/xml,text/xml;q=0.9,*/*;q=0.5');
    const bytes = await response.read();
    const gzipped = bytes[0] === 0x1f && bytes[1] === 0x8b;
    return decodeText(gzipped ? gunzipSync(bytes) : bytes, { charset: response.charset, markup: true });
  } catch {
    return undefined;
  }
}

function locations(xml: string): string[] {
  return [...xml.matchAll(/<loc>\s*(?:<!\[CDATA\[)?(.*?)(?:\]\]>)?\s*<\/loc>/gis)].map((match) =>
    decodeEntities(match[1] ?? '').trim(),
  );
}

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);/gi, (entity, name: string) => {
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    const lower = name.toLowerCase();
    if (lower.startsWith('#x')) return String.fromCodePoint(Number.parseInt(lower.slice(2), 16));
    if (lower.startsWith('#')) return String.fromCodePoint(Number(lower.slice(1)));
    return named[lower] ?? entity;
  });
}

export function sameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}
