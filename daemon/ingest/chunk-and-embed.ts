import type { Embedder } from '../embed/embedder.ts';
import { chunkContextText, chunkDocument } from './chunk.ts';
import { contextHash } from './content-hash.ts';
import type { Chunk, ExtractedDocument } from './types.ts';

/** A document cut into chunks, as a worker thread hands it back. */
export interface ChunkedDocument {
  chunks: Chunk[];
  /**
   * Every chunk's vector end to end, when the worker could embed them: one buffer, so it moves to the main
   * thread without a copy. Given known texts, only the chunks listed in `embedded` are here.
   */
  vectors?: Float32Array<ArrayBuffer>;
  /** The chunks whose vectors are in `vectors`, when some were known (their vectors are reused). */
  embedded?: number[];
  pages: number;
  characters: number;
  /** The document's warnings (pages that could not be read), carried to the source's message. */
  warnings?: string[];
}

/**
 * Cuts a document into chunks and embeds them. Chunks whose embedded text hashes to one of `known` are not
 * embedded: the caller has their vectors already, from an earlier version of the same source.
 */
export async function chunkAndEmbed(
  document: ExtractedDocument,
  embedder: Embedder | undefined,
  known?: readonly string[],
): Promise<ChunkedDocument> {
  const chunks = chunkDocument(document);
  const chunked: ChunkedDocument = {
    chunks,
    pages: document.pages.length,
    characters: document.pages.reduce((sum, page) => sum + page.text.length, 0),
    ...(document.warnings?.length ? { warnings: document.warnings } : {}),
  };
  if (embedder) {
    const texts = chunks.map(chunkContextText);
    if (known?.length) {
      const skipped = new Set(known);
      const embedded = texts.flatMap((text, index) => (skipped.has(contextHash(text)) ? [] : [index]));
      const vectors = await embedder.embed(
        embedded.map((index) => texts[index]!),
        { kind: 'document' },
      );
      chunked.vectors = pack(vectors, embedder.dimensions);
      chunked.embedded = embedded;
    } else {
      chunked.vectors = pack(await embedder.embed(texts, { kind: 'document' }), embedder.dimensions);
    }
  }
  return chunked;
}

function pack(vectors: Float32Array[], dimensions: number): Float32Array<ArrayBuffer> {
  const packed = new Float32Array(vectors.length * dimensions);
  vectors.forEach((vector, position) => {
    packed.set(vector, position * dimensions);
  });
  return packed;
}

/** The packed vectors of `count` chunks as one view each; a length that does not fit means another space. */
export function unpackVectors(packed: Float32Array, count: number, dimensions: number): Float32Array[] {
  if (packed.length !== count * dimensions) {
    throw new Error(`${packed.length} values for ${count} vectors of ${dimensions} dimensions`);
  }
  return Array.from({ length: count }, (_, position) =>
    packed.subarray(position * dimensions, (position + 1) * dimensions),
  );
}
