/** One page of extracted text: a PDF page, a slide, a web page, or the whole of a page-less document. */
export interface ExtractedPage {
  /** 1-based position within the source. */
  page: number;
  /**
   * The page's text. Headings are kept as Markdown `#` lines so the chunker can follow the
   * document's structure; paragraphs are separated by blank lines.
   */
  text: string;
  /** The page's address, for web pages. */
  url?: string;
  /** The page's own title, when it has one (web pages, e-mail subject). */
  title?: string;
}

export interface ExtractedDocument {
  pages: ExtractedPage[];
  title?: string;
  /** Parts that could not be read although the document could (a scanned page the recogniser could not read). */
  warnings?: string[];
}

/** A piece of a document, sized for retrieval, as stored in the chunks table. */
export interface Chunk {
  /** 0-based position within the source. */
  index: number;
  page: number;
  /** The chunk's text as shown to users (what `GET /sources/{id}/chunks` returns). */
  text: string;
  /** Heading path above the chunk, outermost first; prepended as context when embedding and indexing. */
  headings: string[];
  url?: string;
}
