import { TextDecoder } from 'node:util';

const UTF8_BOM = [0xef, 0xbb, 0xbf];
const OLE_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const ZIP_SIGNATURE = [0x50, 0x4b];
const SNIFF_LENGTH = 4096;

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  return signature.every((byte, index) => bytes[offset + index] === byte);
}

/** An OLE2 compound file: legacy Office documents, and encrypted OOXML documents. */
export function isOleContainer(bytes: Uint8Array): boolean {
  return startsWith(bytes, OLE_SIGNATURE);
}

export function isZipArchive(bytes: Uint8Array): boolean {
  return startsWith(bytes, ZIP_SIGNATURE);
}

/** PDF readers accept the header anywhere in the first kilobyte. */
export function hasPdfHeader(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, 1024)).includes('%PDF-');
}

/** Whether the text opens like an HTML page (after a BOM, comments and whitespace). */
export function looksLikeHtml(text: string): boolean {
  const opening = text
    .slice(0, SNIFF_LENGTH)
    .replace(/^\ufeff/, '')
    .replace(/^(\s|<!--[\s\S]*?-->|<\?xml[^>]*>)*/, '');
  return /^<(!doctype html|html|head|body)[\s>]/i.test(opening);
}

/**
 * Bytes → string for text formats: a BOM decides (UTF-8, UTF-16 LE/BE); else UTF-16 when every other byte is
 * NUL; else strict UTF-8; else Windows-1252, the superset of Latin-1 that old text files really use.
 */
export function decodeText(bytes: Uint8Array, declaredCharset?: string): string {
  if (startsWith(bytes, UTF8_BOM)) return new TextDecoder('utf-8').decode(bytes.subarray(3));
  if (startsWith(bytes, [0xff, 0xfe])) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (startsWith(bytes, [0xfe, 0xff])) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  const declared = declaredCharset && decoderFor(declaredCharset);
  if (declared) return declared.decode(bytes);
  // ASCII text in UTF-16 is also valid UTF-8 (NUL is a valid character), so this test comes first.
  const utf16 = unmarkedUtf16(bytes);
  if (utf16) return new TextDecoder(utf16).decode(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

function decoderFor(charset: string): TextDecoder | undefined {
  try {
    return new TextDecoder(charset.trim().toLowerCase());
  } catch {
    return undefined;
  }
}

function unmarkedUtf16(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  const sample = bytes.subarray(0, SNIFF_LENGTH);
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

/** The charset an HTML page declares in a meta tag, read from its ASCII-compatible opening. */
export function declaredHtmlCharset(bytes: Uint8Array): string | undefined {
  const opening = Buffer.from(bytes.subarray(0, SNIFF_LENGTH)).toString('latin1');
  return /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(opening)?.[1];
}
