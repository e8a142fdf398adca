import { afterAll, describe, expect, it } from 'vitest';
import { createHtmlExtractor } from '../../daemon/ingest/web/html-pool.ts';

const extractor = createHtmlExtractor(1);
afterAll(() => extractor.close());

describe('the HTML extractor', () => {
  it('reads pages in its worker, one after another', async () => {
    const pages = await Promise.all(
      ['Tides', 'Buoys'].map((title) =>
        extractor.extract(
          `<html><head><title>${title}</title></head><body><main><p>${title} explained.</p></main></body></html>`,
          `https://sea.example/${title.toLowerCase()}`,
        ),
      ),
    );
    expect(pages.map((page) => page.title)).toEqual(['Tides', 'Buoys']);
    expect(pages[1]?.text).toContain('Buoys explained.');
  });

  it('fails pages waiting or asked for once it is closed', async () => {
    const own = createHtmlExtractor(1);
    // The expectations are attached before close, which rejects the waiting page at once.
    const running = expect(own.extract('<p>first</p>', 'https://sea.example/')).rejects.toThrow(
      /the HTML extraction worker stopped/,
    );
    const waiting = expect(own.extract('<p>second</p>', 'https://sea.example/')).rejects.toThrow(
      'the HTML extraction workers were stopped',
    );
    await own.close();
    await running;
    await waiting;
    await expect(own.extract('<p>third</p>', 'https://sea.example/')).rejects.toThrow(
      'the HTML extraction workers were stopped',
    );
  });
});
