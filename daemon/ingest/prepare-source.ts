import type { Embedder } from '../embed/index.ts';
import type { WebPage } from '../web-page.ts';
import { chunkContextText } from './chunk.ts';
import { type ChunkedDocument, unpackVectors } from './chunk-and-embed.ts';
import { contextHash, documentHash } from './content-hash.ts';
import type { RecognitionOptions, RecognitionProgress, StoredFile } from './extract/index.ts';
import { type DocumentInput, type LoadOptions, loadDocument } from './load-document.ts';
import type { Chunk } from './types.ts';

/** Chunks per request to an embedder that runs on this thread (a remote one). */
const EMBED_BATCH = 64;

/** What a source's content points at, resolved by the caller (a stored file's path, or web addresses). */
export type SourceInput = DocumentInput | ({ kind: 'file' } & StoredFile);

export interface PrepareSourceOptions extends LoadOptions {
  embedder: Embedder;
  /** Time limit of the worker job that reads, chunks and embeds. */
  extractTimeoutMs: number;
  /** The source's name, for messages about a document made on this thread. */
  name: string;
  /** How scanned PDF pages are recognised; `false` turns recognition off. */
  recognition?: RecognitionOptions | false | undefined;
  /** News of a file's scanned pages as they are recognised. */
  onProgress?: ((progress: RecognitionProgress) => void) | undefined;
  /**
   * Reads the vectors of the source's live version, by the hash of the text they were embedded from
   * (contextHash): chunks with the same text take them rather than be embedded again. Called only when needed.
   */
  reusable?: (() => Promise<ReadonlyMap<string, Float32Array>>) | undefined;
  /** The live version's content hash: a web document that hashes to it is unchanged, and is not chunked. */
  liveHash?: string | null | undefined;
}

/** A source's chunks with their vectors, ready to store. */
export interface PreparedSource {
  chunks: Chunk[];
  vectors: Float32Array[];
  pages: number;
  characters: number;
  /** Pages that could not be read although the source as a whole could, for the user to see. */
  warnings: string[];
  /** How many chunks were embedded (the others took the live version's vectors), and of how many pages. */
  embedded: number;
  embeddedPages: number;
  /** Web documents: the pages read, with what the next sync needs, and the content hash. */
  web?: { pages: WebPage[]; notModified: number; contentHash: string };
  /** The web document hashed to `liveHash`: nothing was chunked or embedded, and the live chunks stand. */
  unchanged?: boolean;
}

/**
 * Turns a source into chunks and vectors. The CPU work (parsing, chunking, embedding with an embedder that has
 * a recipe) runs in one worker job, so the main thread only fetches from the web and calls remote embedders.
 */
export async function prepareSource(
  input: SourceInput,
  options: PrepareSourceOptions,
): Promise<PreparedSource> {
  const job = async () => {
    const reuse = await options.reusable?.();
    return {
      reuse,
      options: {
        timeoutMs: options.extractTimeoutMs,
        signal: options.signal,
        embedder: options.embedder.recipe,
        known: reuse?.size ? [...reuse.keys()] : undefined,
        recognition: options.recognition,
        onProgress: options.onProgress,
      },
    };
  };
  if (input.kind === 'file') {
    const { reuse, options: fileJob } = await job();
    return withVectors(await options.readers.files.prepareFile(input, fileJob), [], reuse, options);
  }
  const loaded = await loadDocument(input, options);
  const web = loaded.web && { ...loaded.web, contentHash: documentHash(loaded.document.pages) };
  if (web && options.liveHash === web.contentHash) {
    const { warnings } = loaded;
    return {
      chunks: [],
      vectors: [],
      pages: 0,
      characters: 0,
      warnings,
      embedded: 0,
      embeddedPages: 0,
      web,
      unchanged: true,
    };
  }
  const { reuse, options: documentJob } = await job();
  const prepared = await withVectors(
    await options.readers.files.prepareDocument(loaded.document, options.name, documentJob),
    loaded.warnings,
    reuse,
    options,
  );
  return web ? { ...prepared, web } : prepared;
}

async function withVectors(
  chunked: ChunkedDocument,
  warnings: string[],
  reuse: ReadonlyMap<string, Float32Array> | undefined,
  { embedder, signal }: PrepareSourceOptions,
): Promise<PreparedSource> {
  const { chunks, pages, characters } = chunked;
  const texts = chunks.map(chunkContextText);
  let vectors: Float32Array[];
  let embedded: number[];
  if (chunked.vectors && chunked.embedded) {
    // Embedded in the worker, but for the chunks whose text the live version had: those take its vectors.
    const fresh = unpackVectors(chunked.vectors, chunked.embedded.length, embedder.dimensions);
    vectors = texts.map((text) => reuse?.get(contextHash(text)) as Float32Array);
    embedded = chunked.embedded;
    embedded.forEach((index, position) => {
      vectors[index] = fresh[position]!;
    });
  } else if (chunked.vectors) {
    vectors = unpackVectors(chunked.vectors, chunks.length, embedder.dimensions);
    embedded = chunks.map((_, index) => index);
  } else {
    const known = texts.map((text) => reuse?.get(contextHash(text)));
    embedded = texts.flatMap((_, index) => (known[index] ? [] : [index]));
    const made = await embedHere(
      embedded.map((index) => texts[index]!),
      embedder,
      signal,
    );
    let next = 0;
    vectors = known.map((vector) => vector ?? made[next++]!);
  }
  return {
    chunks,
    vectors,
    pages,
    characters,
    warnings: [...warnings, ...(chunked.warnings ?? [])],
    embedded: embedded.length,
    embeddedPages: new Set(embedded.map((index) => chunks[index]!.page)).size,
  };
}

async function embedHere(texts: string[], embedder: Embedder, signal: AbortSignal): Promise<Float32Array[]> {
  const vectors: Float32Array[] = [];
  for (let start = 0; start < texts.length; start += EMBED_BATCH) {
    signal.throwIfAborted();
    vectors.push(
      ...(await embedder.embed(texts.slice(start, start + EMBED_BATCH), { kind: 'document', signal })),
    );
  }
  return vectors;
}
