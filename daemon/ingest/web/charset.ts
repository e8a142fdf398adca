/**
 * Decodes an HTML or text body the way browsers do, in order of authority: a byte-order mark, the
 * Content-Type charset, a `<meta>` declaration in the first 1024 bytes, else UTF-8.
 */
export function decodeText(bytes: Uint8Array, headerCharset?: string): string {
  const label = byteOrderMark(bytes) ?? usable(headerCharset) ?? usable(metaCharset(bytes)) ?? 'utf-8';
  // TextDecoder strips the BOM itself for the encoding it names.
  return new TextDecoder(label).decode(bytes);
}

function byteOrderMark(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return undefined;
}

function metaCharset(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024));
  return (
    /<meta\s[^>]*charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head)?.[1] ??
    /<\?xml\s[^>]*encoding\s*=\s*["']([\w.:-]+)/i.exec(head)?.[1]
  );
}

function usable(label: string | undefined): string | undefined {
  if (!label) return undefined;
  try {
    const encoding = new TextDecoder(label).encoding;
    // A page cannot be UTF-16 without a BOM in practice; such declarations are wrong (HTML spec does the same).
    return encoding.startsWith('utf-16') ? 'utf-8' : encoding;
  } catch {
    return undefined;
  }
}
