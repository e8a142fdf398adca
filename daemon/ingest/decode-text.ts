import { TextDecoder } from 'node:util';

/** How far a declaration or a UTF-16 pattern is looked for (WHATWG's prescan reads 1024 bytes for `<meta>`). */
const MARKUP_PRESCAN_BYTES = 1024;
const UTF16_SNIFF_BYTES = 4096;

export interface DecodeOptions {
  /** The charset the bytes came with: an HTTP Content-Type's, or one a caller knows. */
  charset?: string | undefined;
  /** The bytes are HTML or XML: a `<meta charset>` or `<?xml encoding>` in their opening counts too. */
  markup?: boolean;
}

/**
 * Bytes → string for files and web responses alike, in order of authority:
 * 1. a byte-order mark (UTF-8, UTF-16 LE/BE), which outranks any declaration, as browsers do;
 * 2. the charset the bytes came with (`options.charset`);
 * 3. for markup, the charset its `<meta>` or XML declaration names;
 * 4. UTF-16 when every other byte is NUL;
 * 5. strict UTF-8;
 * 6. else Windows-1252, the superset of Latin-1 that old files and pages really use.
 * A declaration of UTF-16 without a BOM is ignored (the HTML spec does the same for `<meta>`): read as ASCII, the
 * declaration could not have been found in real UTF-16, and the sniffing of step 4 finds real UTF-16 anyway.
 */
export function decodeText(bytes: Uint8Array, options: DecodeOptions = {}): string {
  const marked = byteOrderMark(bytes);
  if (marked) return new TextDecoder(marked.encoding).decode(bytes.subarray(marked.length));
  const declared = usable(options.charset) ?? (options.markup ? usable(markupCharset(bytes)) : undefined);
  if (declared) return new TextDecoder(declared).decode(bytes);
  // ASCII text in UTF-16 is also valid UTF-8 (NUL is a valid character), so this test comes first.
  const utf16 = unmarkedUtf16(bytes);
  if (utf16) return new TextDecoder(utf16).decode(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

function byteOrderMark(bytes: Uint8Array): { encoding: string; length: number } | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf-8', length: 3 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', length: 2 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', length: 2 };
  return undefined;
}

/** The charset named in the ASCII-compatible opening of an HTML page or XML file. */
function markupCharset(bytes: Uint8Array): string | undefined {
  const opening = new TextDecoder('latin1').decode(bytes.subarray(0, MARKUP_PRESCAN_BYTES));
  return (
    /<meta\s[^>]*charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(opening)?.[1] ??
    /<\?xml\s[^>]*encoding\s*=\s*["']([\w.:-]+)/i.exec(opening)?.[1]
  );
}

/** The encoding a label names, when TextDecoder knows it and it can be trusted without a BOM. */
function usable(label: string | undefined): string | undefined {
  if (!label) return undefined;
  try {
    const { encoding } = new TextDecoder(label);
    return encoding.startsWith('utf-16') ? undefined : encoding;
  } catch {
    return undefined;
  }
}

function unmarkedUtf16(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  const sample = bytes.subarray(0, UTF16_SNIFF_BYTES);
  let evenZeros = 0;
  let oddZeros = 0;
  for (let index = 0; index < sample.length; index++) {
    if (sample[index] !== 0) continue;
    if (index % 2 === 0) evenZeros++;
    else oddZeros++;
  }
  const pairs = sample.length / 2;
  if (oddZeros > pairs * 0.4 && evenZeros < pairs * 0.05) return 'utf-16le';
  if (evenZeros > pairs * 0.4 && oddZeros < pairs * 0.05) return 'utf-16be';
  return undefined;
}
