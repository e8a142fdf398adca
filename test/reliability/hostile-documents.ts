import { once } from 'node:events';
import { crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';
import { buildDocx, buildPptx } from '../support/fixtures-documents.ts';

interface ZipEntry {
  name: string;
  method: number;
  crc: number;
  size: number;
  compressed: Buffer;
}

/** The entries of a zip written without data descriptors' surprises: sizes come from the central directory. */
function readZip(zip: Buffer): ZipEntry[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  let offset = zip.readUInt32LE(end + 16);
  const entries: ZipEntry[] = [];
  for (let index = 0; index < count; index++) {
    const method = zip.readUInt16LE(offset + 10);
    const crc = zip.readUInt32LE(offset + 16);
    const compressedSize = zip.readUInt32LE(offset + 20);
    const size = zip.readUInt32LE(offset + 24);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    const local = zip.readUInt32LE(offset + 42);
    const name = zip.subarray(offset + 46, offset + 46 + nameLength).toString('utf8');
    const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    entries.push({
      name,
      method,
      crc,
      size,
      compressed: zip.subarray(dataStart, dataStart + compressedSize),
    });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function writeZip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt32LE(entry.crc, 14);
    local.writeUInt32LE(entry.compressed.length, 18);
    local.writeUInt32LE(entry.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(entry.method, 10);
    central.writeUInt32LE(entry.crc, 16);
    central.writeUInt32LE(entry.compressed.length, 20);
    central.writeUInt32LE(entry.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, entry.compressed);
    centrals.push(central, name);
    offset += 30 + name.length + entry.compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

function deflatedEntry(name: string, text: string): ZipEntry {
  const data = Buffer.from(text);
  return { name, method: 8, crc: crc32(data), size: data.length, compressed: deflateRawSync(data) };
}

/** `head`, then `filler` repeated to `bytes` in all, then `tail`, deflated as a stream so it is never held whole. */
async function bombEntry(
  name: string,
  head: string,
  filler: string,
  bytes: number,
  tail: string,
): Promise<ZipEntry> {
  const deflate = createDeflateRaw();
  const parts: Buffer[] = [];
  deflate.on('data', (part: Buffer) => parts.push(part));
  const block = Buffer.from(filler.repeat(Math.ceil((1024 * 1024) / filler.length)));
  let crc = crc32(head);
  deflate.write(head);
  let written = Buffer.byteLength(head);
  while (written < bytes) {
    crc = crc32(block, crc);
    if (!deflate.write(block)) await once(deflate, 'drain');
    written += block.length;
  }
  crc = crc32(tail, crc);
  deflate.end(tail);
  written += Buffer.byteLength(tail);
  await once(deflate, 'end');
  return { name, method: 8, crc, size: written, compressed: Buffer.concat(parts) };
}

function replaceEntry(zip: Uint8Array, entry: ZipEntry): Buffer {
  const entries = readZip(Buffer.from(zip));
  if (!entries.some((candidate) => candidate.name === entry.name))
    throw new Error(`no ${entry.name} in the zip`);
  return writeZip(entries.map((candidate) => (candidate.name === entry.name ? entry : candidate)));
}

const WORD_HEAD =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>';
const WORD_TAIL = '</w:t></w:r></w:p></w:body></w:document>';

/** A .docx whose document.xml inflates to `bytes` (a few hundred KiB on disk for hundreds of MiB inside). */
export async function docxBomb(bytes: number): Promise<Buffer> {
  const docx = await buildDocx([{ heading: 'Bomb', level: 1, paragraphs: ['boom'] }]);
  return replaceEntry(docx, await bombEntry('word/document.xml', WORD_HEAD, 'lol ', bytes, WORD_TAIL));
}

/** A .pptx whose first slide inflates to `bytes`. */
export async function pptxBomb(bytes: number): Promise<Buffer> {
  const pptx = await buildPptx([{ title: 'Bomb', body: 'boom', notes: '' }]);
  const head =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><p:sld xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"><p:cSld><p:spTree><p:sp><p:txBody><a:p><a:r><a:t>';
  return replaceEntry(
    pptx,
    await bombEntry(
      'ppt/slides/slide1.xml',
      head,
      'lol ',
      bytes,
      '</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>',
    ),
  );
}

const LAUGHS = [
  '<!DOCTYPE w:document [',
  '<!ENTITY lol "lol">',
  ...Array.from({ length: 9 }, (_, level) => {
    const previous = level === 0 ? 'lol' : `lol${level}`;
    return `<!ENTITY lol${level + 1} "${`&${previous};`.repeat(10)}">`;
  }),
  ']>',
].join('');

/** A .docx whose document.xml declares the "billion laughs" entities: 10⁹ "lol"s if a parser expands them. */
export async function docxEntityExpansion(): Promise<Buffer> {
  const docx = await buildDocx([{ heading: 'Laughs', level: 1, paragraphs: ['placeholder'] }]);
  const xml = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>${LAUGHS}${WORD_HEAD.slice(WORD_HEAD.indexOf('?>') + 2)}&lol9;${WORD_TAIL}`;
  return replaceEntry(docx, deflatedEntry('word/document.xml', xml));
}

/** A PDF whose page tree contains itself. */
export function loopingPdf(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
  ];
  return pdfFrom(objects.map((body) => Buffer.from(body)));
}

/** A one-page PDF whose content stream inflates to `bytes` of text-showing operators. */
export async function hugePdf(bytes: number): Promise<Buffer> {
  const entry = await bombEntry(
    'content',
    'BT /F1 12 Tf 72 720 Td ',
    '(all work and no play) Tj 0 -1 Td ',
    bytes,
    'ET',
  );
  const stream = Buffer.concat([
    Buffer.from(`<< /Length ${entry.compressed.length + 6} /Filter /FlateDecode >>\nstream\n`),
    // zlib framing around the raw deflate data: header, data, (unchecked) Adler-32.
    Buffer.from([0x78, 0x9c]),
    entry.compressed,
    Buffer.from([0, 0, 0, 0]),
    Buffer.from('\nendstream'),
  ]);
  const objects = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from(
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    ),
    stream,
    Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'),
  ];
  return pdfFrom(objects);
}

function pdfFrom(objects: Buffer[]): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  objects.forEach((body, index) => {
    offsets.push(length);
    const part = Buffer.concat([Buffer.from(`${index + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    parts.push(part);
    length += part.length;
  });
  const xref = [
    'xref',
    `0 ${objects.length + 1}`,
    '0000000000 65535 f ',
    ...offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n `),
    'trailer',
    `<< /Size ${objects.length + 1} /Root 1 0 R >>`,
    'startxref',
    String(length),
    '%%EOF',
  ].join('\n');
  parts.push(Buffer.from(`${xref}\n`));
  return Buffer.concat(parts);
}

/** A page of `count` sibling elements, each a few nested blocks: tens of MiB of markup. */
export function giantHtml(count: number): string {
  return `<!doctype html><html><body>${'<div><section><p>row <b>bold</b> <i>text</i></p></section></div>'.repeat(count)}</body></html>`;
}

export function deeplyNestedJson(depth: number): string {
  return `${'{"a":['.repeat(depth)}1${']}'.repeat(depth)}`;
}
