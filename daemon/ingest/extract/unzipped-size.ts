import { once } from 'node:events';
import { createInflateRaw } from 'node:zlib';
import { ExtractionError } from './errors.ts';

/**
 * Office XML parts may inflate to at most this much in all. The parsers hold the inflated parts in buffers
 * outside the worker's heap limit, so a zip bomb (a few hundred KB inflating to gigabytes) would otherwise take
 * the whole daemon's memory; 100 MiB matches the limit on a file's own size.
 */
export const MAX_UNZIPPED_XML_BYTES = 100 * 1024 * 1024;

interface Entry {
  name: string;
  method: number;
  data: Uint8Array;
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const STORED = 0;
const DEFLATED = 8;

function entries(bytes: Uint8Array): Entry[] {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  for (let offset = view.length - 22; offset >= Math.max(0, view.length - 65_557); offset--) {
    if (view.readUInt32LE(offset) === END_OF_DIRECTORY) {
      end = offset;
      break;
    }
  }
  // Not a zip this reader understands: the format's own parser reports what is wrong with it.
  if (end < 0) return [];
  const found: Entry[] = [];
  let offset = view.readUInt32LE(end + 16);
  for (let index = view.readUInt16LE(end + 10); index > 0 && offset + 46 <= view.length; index--) {
    if (view.readUInt32LE(offset) !== DIRECTORY_ENTRY) break;
    const method = view.readUInt16LE(offset + 10);
    const compressedSize = view.readUInt32LE(offset + 20);
    const nameLength = view.readUInt16LE(offset + 28);
    const local = view.readUInt32LE(offset + 42);
    const name = view.toString('utf8', offset + 46, offset + 46 + nameLength);
    if (local + 30 <= view.length) {
      const start = local + 30 + view.readUInt16LE(local + 26) + view.readUInt16LE(local + 28);
      found.push({ name, method, data: view.subarray(start, Math.min(view.length, start + compressedSize)) });
    }
    offset += 46 + nameLength + view.readUInt16LE(offset + 30) + view.readUInt16LE(offset + 32);
  }
  return found;
}

/** Inflates `data`, keeping none of it, and returns how many bytes it held, or stops once past `budget`. */
async function inflatedLength(data: Uint8Array, budget: number): Promise<number> {
  const inflate = createInflateRaw();
  let total = 0;
  inflate.on('data', (chunk: Buffer) => {
    total += chunk.length;
    if (total > budget) inflate.destroy();
  });
  inflate.on('error', () => {});
  inflate.end(data);
  await Promise.race([once(inflate, 'end'), once(inflate, 'close')]);
  return total;
}

/**
 * Refuses an Office file whose XML parts inflate past MAX_UNZIPPED_XML_BYTES. The parts are inflated for real,
 * since a bomb can declare any sizes it likes in its headers.
 */
export async function checkUnzippedSize(
  bytes: Uint8Array,
  fileName: string,
  limit = MAX_UNZIPPED_XML_BYTES,
): Promise<void> {
  let total = 0;
  for (const entry of entries(bytes)) {
    if (!/\.(xml|rels)$/i.test(entry.name)) continue;
    const remaining = limit - total;
    if (entry.method === STORED) total += entry.data.length;
    else if (entry.method === DEFLATED) total += await inflatedLength(entry.data, remaining);
    if (total > limit) {
      throw ExtractionError.cannotRead(
        fileName,
        'too_large',
        `its contents expand to more than ${limit / (1024 * 1024)} MB when unzipped (a zip bomb, or a document too large to index); split it into smaller files`,
      );
    }
  }
}
