import { MemoryVectorStore } from '@langchain/classic/vectorstores/memory';
import { Embeddings } from '@langchain/core/embeddings';
import { RecursiveCharacterTextSplitter } from '@langchain/textsplitters';
import type { Embedder } from '../../daemon/embed/embedder.ts';
import type { RankedPassage } from '../retrieval-data.ts';

/** Lets LangChain use ckb's offline embedder, so the peer differs from ckb in pipeline, not in model. */
class EmbedderAdapter extends Embeddings {
  private readonly embedder: Embedder;

  constructor(embedder: Embedder) {
    super({});
    this.embedder = embedder;
  }

  async embedDocuments(texts: string[]): Promise<number[][]> {
    return (await this.embedder.embed(texts)).map((vector) => Array.from(vector));
  }

  async embedQuery(text: string): Promise<number[]> {
    return Array.from((await this.embedder.embed([text], { kind: 'query' }))[0]!);
  }
}

/** The textbook LangChain.js pipeline: RecursiveCharacterTextSplitter 1000/200 and MemoryVectorStore. */
export async function createLangChainPeer(documents: Map<string, string>, embedder: Embedder) {
  const splitter = new RecursiveCharacterTextSplitter({ chunkSize: 1000, chunkOverlap: 200 });
  const store = new MemoryVectorStore(new EmbedderAdapter(embedder));
  let chunks = 0;
  for (const [documentId, text] of documents) {
    const pieces = await splitter.createDocuments([text], [{ documentId }]);
    chunks += pieces.length;
    await store.addDocuments(pieces);
  }
  return {
    chunks,
    search: async (query: string, limit: number): Promise<RankedPassage[]> =>
      (await store.similaritySearch(query, limit)).map((document) => ({
        documentId: String(document.metadata['documentId']),
        text: document.pageContent,
      })),
  };
}
