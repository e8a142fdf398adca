import { describe, expect, it } from 'vitest';
import { htmlToPage } from '../../daemon/ingest/extract/html.ts';

const ARTICLE_PAGE = `<!doctype html><html><head><title>Tide tables</title>
<link rel="canonical" href="/guides/tides">
<style>body { color: red }</style><script>var hidden = "script text";</script></head>
<body><nav><a href="/">Home</a> <a href="https://other.example/x#top">Elsewhere</a> <a href="mailto:a@b.c">Mail</a></nav>
<article><h1>Reading tide tables</h1>
<p>${'The moon pulls the sea twice a day, and the tables tell you when. '.repeat(8)}</p>
<h2>Spring tides</h2><p>${'Spring tides follow the new and the full moon, with the largest range. '.repeat(8)}</p>
<ul><li>High water</li><li>Low water</li></ul></article></body></html>`;

describe('htmlToPage', () => {
  it('keeps headings as # lines and drops scripts and styles', () => {
    const page = htmlToPage(ARTICLE_PAGE, 'https://sea.example/guides/tides?ref=1');
    expect(page.text).toMatch(/^# Reading tide tables$/m);
    expect(page.text).toMatch(/^## Spring tides$/m);
    expect(page.text).toContain('The moon pulls the sea twice a day');
    expect(page.text).toMatch(/^- High water$/m);
    expect(page.text).not.toContain('script text');
    expect(page.text).not.toContain('color: red');
    expect(page.title).toBe('Tide tables');
  });

  it('resolves links and the canonical URL against the page URL, keeping only http(s) links', () => {
    const page = htmlToPage(ARTICLE_PAGE, 'https://sea.example/guides/tides?ref=1');
    expect(page.canonicalUrl).toBe('https://sea.example/guides/tides');
    expect(page.links).toEqual(['https://sea.example/', 'https://other.example/x']);
  });

  it('falls back to the body text of pages without an article, and reads fragments', () => {
    const page = htmlToPage('<p>Only <b>one</b>\u00a0 line</p><table><tr><td>a</td><td>b</td></tr></table>');
    expect(page.text.replace(/\s+/g, ' ')).toBe('Only one line a b');
    expect(page.links).toEqual([]);
    expect(page.title).toBeUndefined();
  });
});
