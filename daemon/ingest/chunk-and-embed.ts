import { chunkContextText, chunkDocument } from './chunk.ts';
import type { Embedder } from './embed/embedder.ts';
import type { Chunk, ExtractedDocument } from './types.ts';

/** A document cut into chunks, as a worker thread hands it back. */
export interface ChunkedDocument {
  chunks: Chunk[];
  /**
   * Every chunk's vector end to end, when the worker could embed them: one buffer, so it moves to the main
   * thread without a copy.
   */
  vectors?: Float32Array<ArrayBuffer>;
  pages: number;
  characters: number;
  /** The document's warnings (pages that could not be read), carried to the source's message. */
  warnings?: string[];
}

export async function chunkAndEmbed(
  document: ExtractedDocument,
  embedder: Embedder | undefined,
): Promise<ChunkedDocument> {
  const chunks = chunkDocument(document);
  const chunked: ChunkedDocument = {
    chunks,
    pages: document.pages.length,
    characters: document.pages.reduce((sum, page) => sum + page.text.length, 0),
    ...(document.warnings?.length ? { warnings: document.warnings } : {}),
  };
  if (embedder) {
    const vectors = await embedder.embed(chunks.map(chunkContextText), { kind: 'document' });
    chunked.vectors = pack(vectors, embedder.dimensions);
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
