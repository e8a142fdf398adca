import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeText, looksLikeHtml } from '../../daemon/ingest/extract/decode.ts';
import { normalizeText } from '../../daemon/ingest/extract/normalize.ts';

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
