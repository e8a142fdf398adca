import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import type { DomDocument, DomElement, DomNode } from './dom.ts';
import { normalizeText } from './normalize.ts';
import { CELL_ELEMENTS, columnHeaders } from './table-headers.ts';

export interface HtmlPage {
  text: string;
  title?: string;
  canonicalUrl?: string;
  links: string[];
}

const SKIPPED_ELEMENTS = new Set([
  'SCRIPT',
  'STYLE',
  'NOSCRIPT',
  'TEMPLATE',
  'SVG',
  'CANVAS',
  'IFRAME',
  'OBJECT',
  'HEAD',
  'SELECT',
  'BUTTON',
]);
const BLOCK_ELEMENTS = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'BODY',
  'CAPTION',
  'DD',
  'DETAILS',
  'DIV',
  'DL',
  'DT',
  'FIELDSET',
  'FIGCAPTION',
  'FIGURE',
  'FOOTER',
  'FORM',
  'HEADER',
  'HR',
  'MAIN',
  'NAV',
  'OL',
  'P',
  'PRE',
  'SECTION',
  'SUMMARY',
  'TABLE',
  'TBODY',
  'TFOOT',
  'THEAD',
  'UL',
]);
const HEADING_LEVEL: Record<string, number> = { H1: 1, H2: 2, H3: 3, H4: 4, H5: 5, H6: 6 };
const LEVEL_ATTRIBUTE = 'data-heading-level';

// Readability keeps the article and drops navigation, but on pages that are mostly lists or tables it keeps a
// fragment; below this share of the body's text the whole body serves the reader better.
const MINIMUM_ARTICLE_SHARE = 0.5;
// Readability's time grows with the cube of nesting depth (0.5 s at 100 levels, 30 s at 800); real pages nest a
// few dozen levels, so deeper ones are read as body text.
const MAXIMUM_READABLE_DEPTH = 100;
// Readability and the second parse it needs cost about 0.25 ms per element (4 s for 100,000 elements on top of a
// 1.4 s parse); article pages have a few thousand elements, so giant DOMs are read as body text.
const MAXIMUM_READABLE_ELEMENTS = 20_000;

/** HTML → main content (Readability on linkedom, else the body text), headings kept as `#` lines. */
export function htmlToPage(html: string, url?: string): HtmlPage {
  const document = parseDocument(html);
  const links = collectLinks(document, url);
  const canonicalUrl = resolveUrl(
    document.querySelector('link[rel~="canonical" i]')?.getAttribute('href'),
    url,
  );
  const documentTitle = normalizeText(document.querySelector('title')?.textContent ?? '');
  const bodyText = blocksToText(document.body ?? document.documentElement);
  const article = isReadable(document.body) ? readArticle(html) : undefined;
  const text =
    article && article.text.length >= bodyText.length * MINIMUM_ARTICLE_SHARE ? article.text : bodyText;
  const title = documentTitle || article?.title;
  return {
    text,
    links,
    ...(title ? { title } : {}),
    ...(canonicalUrl ? { canonicalUrl } : {}),
  };
}

/** The whole body of an HTML document or fragment as text, headings as `#` lines (for converted documents). */
export function htmlToText(html: string): string {
  const document = parseDocument(html);
  return blocksToText(document.body ?? document.documentElement);
}

function parseDocument(html: string): DomDocument {
  // linkedom only builds document.body for complete documents; fragments (e.g. a converted DOCX) need a shell.
  const complete = /<html[\s>]/i.test(html) || /<body[\s>]/i.test(html);
  return parseHTML(complete ? html : `<!doctype html><html><body>${html}</body></html>`)
    .document as DomDocument;
}

function readArticle(html: string): { text: string; title?: string } | undefined {
  // Readability rewrites the DOM it reads, so it gets a document of its own.
  const document = parseDocument(html);
  // Readability demotes every h1 to h2; the original level, kept in an attribute, survives its rewrite.
  for (const heading of document.querySelectorAll('h1, h2, h3, h4, h5, h6')) {
    heading.setAttribute(LEVEL_ATTRIBUTE, heading.tagName.slice(1));
  }
  let article: ReturnType<Readability['parse']>;
  try {
    article = new Readability(document as never, { charThreshold: 200 }).parse();
  } catch {
    // Readability trips over some markup linkedom accepts; the body text is still there.
    return undefined;
  }
  if (!article?.content) return undefined;
  const content = parseDocument(article.content);
  const text = blocksToText(content.body ?? content.documentElement);
  const title = article.title ? normalizeText(article.title) : '';
  return title ? { text, title } : { text };
}

/** Whether Readability finishes in reasonable time on this body: not nested too deep, not too many elements. */
function isReadable(root: DomElement | null): boolean {
  let elements = 0;
  const pending: [DomNode, number][] = root ? [[root, 1]] : [];
  for (let entry = pending.pop(); entry !== undefined; entry = pending.pop()) {
    const [node, depth] = entry;
    elements += 1;
    if (depth > MAXIMUM_READABLE_DEPTH || elements > MAXIMUM_READABLE_ELEMENTS) return false;
    for (const child of node.childNodes) if (child.nodeType === 1) pending.push([child, depth + 1]);
  }
  return true;
}

function collectLinks(document: DomDocument, base: string | undefined): string[] {
  const links = new Set<string>();
  for (const anchor of document.querySelectorAll('a[href]')) {
    const link = resolveUrl(anchor.getAttribute('href'), base);
    if (link && /^https?:/.test(link)) links.add(link.replace(/#.*$/, ''));
  }
  return [...links];
}

function resolveUrl(href: string | null | undefined, base: string | undefined): string | undefined {
  if (!href?.trim()) return undefined;
  try {
    return new URL(href.trim(), base).href;
  } catch {
    return undefined;
  }
}

/**
 * Walks the DOM, turning block elements into paragraphs, headings into `#` lines and a table's rows into lines of
 * their own: a row read as one line keeps a label with its value ("Name and Address: EPSRC Polaris House, ...") and
 * a name with its role, which cell by cell paragraphs part; a cell under a header row follows its column's name.
 */
function blocksToText(root: DomElement | null): string {
  if (!root) return '';
  const walk: Walk = { parts: [], steps: [{ node: root, within: NOWHERE_SPECIAL }], headers: new Map() };
  // An explicit stack rather than recursion: hostile pages nest elements deeper than the call stack allows.
  const { parts, steps } = walk;
  for (let step = steps.pop(); step !== undefined; step = steps.pop()) {
    if (typeof step === 'string') parts.push(step);
    else open(step.node, step.within, walk);
  }
  return normalizeText(parts.join(''));
}

/** What an element sits inside that changes how its text is laid out. */
interface Within {
  /** Inside `<pre>`: its white space is kept, but in a table row. */
  preformatted: boolean;
  /** Inside a table row: paragraphs, line breaks, list items and headings are spaces, so the row stays one line. */
  row: boolean;
}

const NOWHERE_SPECIAL: Within = { preformatted: false, row: false };

/** A node still to visit, or the text that closes an element once its children are done. */
type Step = { node: DomNode; within: Within } | string;

interface Walk {
  /** The text so far, in pieces. */
  parts: string[];
  steps: Step[];
  /** The cells of the tables met so far that are read with their column's header (table-headers.ts). */
  headers: Map<DomElement, string>;
}

function open(node: DomNode, within: Within, { parts, steps, headers }: Walk): void {
  if (node.nodeType === 3) {
    const text = node.textContent ?? '';
    parts.push(within.preformatted && !within.row ? text : text.replace(/\s+/g, ' '));
    return;
  }
  if (node.nodeType !== 1) return;
  const element = node as DomElement;
  const tag = element.tagName.toUpperCase();
  if (SKIPPED_ELEMENTS.has(tag) || element.getAttribute('hidden') !== null) return;
  if (tag === 'BR') {
    parts.push(within.row ? ' ' : '\n');
    return;
  }
  const level = HEADING_LEVEL[tag] && (Number(element.getAttribute(LEVEL_ATTRIBUTE)) || HEADING_LEVEL[tag]);
  if (level && !within.row) {
    const heading = normalizeText(element.textContent ?? '').replace(/\n+/g, ' ');
    if (heading) parts.push(`\n\n${'#'.repeat(level)} ${heading}\n\n`);
    return;
  }
  if (tag === 'TABLE')
    for (const [cell, header] of columnHeaders(element, cellText)) headers.set(cell, header);
  const [opening, closing] = separators(tag, within.row);
  const header = headers.get(element);
  parts.push(header === undefined ? opening : `${opening}${header}: `);
  if (tag === 'IMG') parts.push(` ${element.getAttribute('alt') ?? ''} `);
  if (closing) steps.push(closing);
  const inside =
    tag === 'PRE' || tag === 'TR'
      ? { preformatted: within.preformatted || tag === 'PRE', row: within.row || tag === 'TR' }
      : within;
  const children = [...element.childNodes];
  for (let index = children.length - 1; index >= 0; index--) {
    steps.push({ node: children[index]!, within: inside });
  }
}

/** A header cell's text as the walker reads it, on one line: "GPL v3.0" from `<p>GPL</p><p>v3.0</p>`. */
function cellText(cell: DomElement): string {
  return blocksToText(cell).replace(/\s+/g, ' ');
}

/** What an element's text is set apart by, before and after it. */
function separators(tag: string, inRow: boolean): [string, string] {
  // A table inside a row's cell stays on the row's line.
  if (tag === 'TR') return inRow ? [' ', ' '] : ['\n', '\n'];
  const block = BLOCK_ELEMENTS.has(tag) || HEADING_LEVEL[tag] !== undefined;
  if (inRow) return block || CELL_ELEMENTS.has(tag) || tag === 'LI' ? [' ', ' '] : ['', ''];
  if (tag === 'LI') return ['\n- ', ''];
  if (block) return ['\n\n', '\n\n'];
  return CELL_ELEMENTS.has(tag) ? [' ', ' '] : ['', ''];
}
