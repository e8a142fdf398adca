import { describe, expect, it } from 'vitest';
import { htmlToPage, htmlToText } from '../../daemon/ingest/extract/html.ts';

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

  it('reads a table row as one line, whatever paragraphs, breaks or lists its cells hold', () => {
    // A converted document's tables (word.ts); Readability lays out a web page's layout tables its own way.
    const text = htmlToText(
      '<table><tr><td><p>Name and Address:</p></td><td><p>EPSRC</p><p>Polaris House<br>Swindon</p></td></tr>' +
        '<tr><th><h3>Copies</h3></th><td><ul><li>9</li><li>nine</li></ul></td></tr></table><p>After the table.</p>',
    );
    expect(text.split('\n').filter(Boolean)).toEqual([
      'Name and Address: EPSRC Polaris House Swindon',
      'Copies 9 nine',
      'After the table.',
    ]);
  });

  it("reads a cell under a header row after its column's name, and a form's rows as they are", () => {
    const licences = htmlToText(
      '<table><tr><td><p>License</p></td><td><p>GPL v3.0</p></td><td><p>LGPL v3.0</p></td></tr>' +
        '<tr><td><p>So What?</p></td><td><p>It is viral.</p></td><td><p>Not viral like its GPL counterpart.</p></td></tr>' +
        '<tr><td colspan="3"><p>Each license name is a link.</p></td></tr></table>',
    );
    expect(licences.split('\n').filter(Boolean)).toEqual([
      'License GPL v3.0 LGPL v3.0',
      'So What? GPL v3.0: It is viral. LGPL v3.0: Not viral like its GPL counterpart.',
      'Each license name is a link.',
    ]);
    const headed = htmlToText(
      '<table><thead><tr><th>Name</th><th>Role</th></tr></thead><tbody><tr><td>J Malins</td><td>PI</td></tr></tbody></table>',
    );
    expect(headed).toBe('Name Role\n\nJ Malins Role: PI');
    // Two columns of a label and its value, or a first row of long values, name no columns.
    const form = htmlToText(
      '<table><tr><td>Proposal Type:</td><td>Internally resourced external full proposal</td><td>EOI</td></tr>' +
        '<tr><td>Deadline:</td><td>30 June 2004</td><td>fixed</td></tr></table>',
    );
    expect(form).toBe(
      'Proposal Type: Internally resourced external full proposal EOI\n\nDeadline: 30 June 2004 fixed',
    );
  });

  it('keeps a table inside a cell on its row, and names no columns by numbers, spanning headers or header rows', () => {
    expect(
      htmlToText(
        '<table><tr><td>Outer label:</td><td><table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table></td></tr></table>',
      ),
    ).toBe('Outer label: a b c d');
    const header =
      '<tr><td>Licence</td><td><p>GPL</p><p>v3.0</p></td><td>BSD<script>var x = 1</script></td></tr>';
    expect(htmlToText(`<table>${header}<tr><td>Viral?</td><td>Yes</td><td>No</td></tr></table>`)).toBe(
      'Licence GPL v3.0 BSD\n\nViral? GPL v3.0: Yes BSD: No',
    );
    expect(
      htmlToText(
        '<table><tr><td>2001</td><td>5</td><td>7</td></tr><tr><td>2002</td><td>6</td><td>8</td></tr></table>',
      ),
    ).toBe('2001 5 7\n\n2002 6 8');
    expect(
      htmlToText(
        '<table><tr><th colspan="2">Contact</th><th>Team</th></tr><tr><td>a@x</td><td>555</td><td>t</td></tr></table>',
      ),
    ).toBe('Contact Team\n\na@x 555 t');
    expect(
      htmlToText(
        '<table><thead><tr><th>Item</th><th>Q1</th></tr><tr><th>unit</th><th>USD</th></tr></thead><tr><td>Tea</td><td>5</td></tr></table>',
      ),
    ).toBe('Item Q1\n\nunit USD\n\nTea Q1: 5');
  });

  it('reads tables nested in header cells once each, however deep', () => {
    // Reading a header cell's table read its headers again, and theirs: 18 levels took 4 s, 30 would take hours.
    let html = 'innermost';
    for (let level = 0; level < 30; level++)
      html = `<table><tr><td>a</td><td>${html}</td><td>c</td></tr><tr><td>1</td><td>2</td><td>3</td></tr></table>`;
    const text = htmlToText(html);
    // Only the innermost table's first row, which holds no table, names its columns.
    expect(text).toContain('a innermost c 1 innermost: 2 c: 3 c');
    expect(text.match(/:/g)).toHaveLength(2);
  });

  it('falls back to the body text of pages without an article, and reads fragments', () => {
    const page = htmlToPage('<p>Only <b>one</b>\u00a0 line</p><table><tr><td>a</td><td>b</td></tr></table>');
    expect(page.text.replace(/\s+/g, ' ')).toBe('Only one line a b');
    expect(page.links).toEqual([]);
    expect(page.title).toBeUndefined();
  });
});
