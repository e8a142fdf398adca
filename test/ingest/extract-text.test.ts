import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeText } from '../../daemon/ingest/decode-text.ts';
import { normalizeText } from '../../daemon/ingest/extract/normalize.ts';
import { looksLikeHtml } from '../../daemon/ingest/extract/sniff.ts';
import { readMarkdown } from '../../daemon/ingest/extract/text.ts';

// Removed rather than turned into spaces, so a NUL inside a word joins its halves, as it would in the file.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters under test.
const REMOVED_CONTROLS = /[\u0000-\u0008\u000e-\u001f]/g;
const words = (text: string): string[] => text.split(/\s+/).filter(Boolean);
// Text with the awkward characters real files hold: CR, tabs, NUL, no-break spaces, form feeds.
const messyText = fc
  .array(
    fc.oneof(
      fc.string(),
      fc.constantFrom('\r\n', '\r', '\t', '\u0000', '\u00a0', '\f', '\u000b', '  ', '\n\n\n'),
    ),
  )
  .map((parts) => parts.join(''));

describe('normalizeText', () => {
  it('leaves no CR, control characters, space runs or triple newlines, and is idempotent', () => {
    fc.assert(
      fc.property(messyText, (text) => {
        const normalized = normalizeText(text);
        // biome-ignore lint/suspicious/noControlCharactersInRegex: asserting their absence.
        expect(normalized).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]|[ \t]{2}|\n{3}|^\s|\s$/);
        expect(normalizeText(normalized)).toBe(normalized);
      }),
    );
  });

  it('keeps every word, in order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[A-Za-z0-9éü.,]{1,8}$/)),
        fc.array(messyText),
        (tokens, gaps) => {
          const text = tokens.map((token, index) => `${token}${gaps[index] ?? ' '} `).join('');
          expect(words(normalizeText(text))).toEqual(words(text.replace(REMOVED_CONTROLS, '')));
        },
      ),
    );
  });
});

describe('decodeText', () => {
  it('round-trips any string through UTF-8 with and without a BOM', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        const utf8 = new TextEncoder().encode(text);
        expect(decodeText(utf8)).toBe(text);
        expect(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8]))).toBe(text);
      }),
    );
  });

  it('reads UTF-16 LE without a BOM when every other byte is NUL', () => {
    expect(decodeText(new Uint8Array(Buffer.from('plain ascii text in utf-16', 'utf16le')))).toBe(
      'plain ascii text in utf-16',
    );
  });

  it('falls back to Windows-1252 for bytes that are not UTF-8', () => {
    expect(decodeText(new Uint8Array([0x93, 0x48, 0x69, 0x94, 0x20, 0xe9]))).toBe('\u201cHi\u201d é');
  });

  const latin1 = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));
  const metaPage = (charset: string, body: string) =>
    latin1(`<html><head><meta charset="${charset}"></head><body>${body}</body></html>`);

  it('lets a byte-order mark outrank the declared charset and the meta tag', () => {
    const utf8 = new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from('<meta charset="koi8-r">café')]);
    expect(decodeText(utf8, { charset: 'iso-8859-1', markup: true })).toBe('<meta charset="koi8-r">café');
    const utf16 = new Uint8Array([0xfe, 0xff, ...Buffer.from('\u00e9t\u00e9', 'utf16le').swap16()]);
    expect(decodeText(utf16, { charset: 'iso-8859-1' })).toBe('été');
  });

  it('lets the declared charset outrank the meta tag, and the meta tag outrank the fallbacks', () => {
    const page = metaPage('windows-1252', '\u00e9');
    expect(decodeText(page, { charset: 'iso-8859-7', markup: true })).toContain('<body>\u03b9</body>');
    expect(decodeText(page, { markup: true })).toContain('<body>é</body>');
    expect(
      decodeText(latin1('<?xml version="1.0" encoding="iso-8859-7"?><a>\u00e9</a>'), { markup: true }),
    ).toBe('<?xml version="1.0" encoding="iso-8859-7"?><a>\u03b9</a>');
  });

  it('reads a meta tag only in markup', () => {
    const bytes = metaPage('iso-8859-7', 'caf\u00e9');
    expect(decodeText(bytes)).toContain('café');
  });

  it('ignores declarations it cannot use: unknown labels, and UTF-16 without a BOM', () => {
    const text = Buffer.from('naïve <meta charset="utf-16">');
    expect(decodeText(new Uint8Array(text), { charset: 'no-such-charset', markup: true })).toBe(
      'naïve <meta charset="utf-16">',
    );
    expect(decodeText(new Uint8Array(text), { charset: 'utf-16le' })).toBe('naïve <meta charset="utf-16">');
  });
});

describe('looksLikeHtml', () => {
  it.each([
    ['<!DOCTYPE html><html>', true],
    ['\ufeff  <!-- licence -->\n<html lang="en">', true],
    ['<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml">', true],
    ['Plain text that mentions <html> later', false],
    ['# Markdown\n<div>inline</div>', false],
  ])('%j → %s', (text, expected) => {
    expect(looksLikeHtml(text)).toBe(expected);
  });
});

describe('readMarkdown', () => {
  it('takes its title from the first heading of level 1 outside code', () => {
    const text =
      'Some intro.\n\n## Install\n\n```bash\n# install it first\nnpm i\n```\n\n# Real Title\n\nText.';
    expect(readMarkdown(new TextEncoder().encode(text)).title).toBe('Real Title');
    expect(readMarkdown(new TextEncoder().encode('# Guide\n\nText.')).title).toBe('Guide');
    expect(readMarkdown(new TextEncoder().encode('Text only.')).title).toBeUndefined();
  });
});
