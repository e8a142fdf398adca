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
