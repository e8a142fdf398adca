import { createExtractor, type Extractor } from './extract/index.ts';
import { createHtmlExtractor, type HtmlExtractor } from './web/html-pool.ts';

/**
 * The worker pools that read untrusted content: files (uploaded, or behind an address) and web pages. The daemon
 * makes them at start and closes them when it stops; tests make their own.
 */
export interface Readers {
  files: Extractor;
  html: HtmlExtractor;
}

export function createReaders(): Readers & { close(): Promise<void> } {
  const files = createExtractor();
  const html = createHtmlExtractor();
  return {
    files,
    html,
    close: async () => {
      await Promise.all([files.close(), html.close()]);
    },
  };
}
