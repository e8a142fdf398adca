import { fileURLToPath } from 'node:url';
import type { Worker as Thread } from 'node:worker_threads';
import type { Worker as TesseractWorker } from 'tesseract.js';
import { encodePgm, type GreyBitmap } from './bitmap.ts';
import type { EngineNews } from './recogniser-thread.ts';

// Node runs the sources directly in development (type stripping) and the compiled .js after a build.
const THREAD_PATH = fileURLToPath(
  new URL(
    import.meta.url.endsWith('.ts') ? './recogniser-thread.ts' : './recogniser-thread.js',
    import.meta.url,
  ),
);

/** Any name that is not a URL: the thread maps every language file tesseract.js asks for to its npm package. */
const LANGUAGE_PATH = 'language-packs';

/**
 * An engine unused this long is stopped. Starting one costs a third of a second of CPU and its first page
 * another half (WebAssembly warming up), so it is kept from page to page and file to file, but not held
 * (with its hundred-odd MB) by an idle worker.
 */
const IDLE_MS = 60_000;

/**
 * An engine whose memory grew past this is stopped after the page that grew it; the next page starts a new one.
 * A Letter page at 200 dpi takes about 35 MB. The engine cannot grow past 2 GB (its WebAssembly build's limit):
 * a page that would fails alone.
 */
const MAX_ENGINE_BYTES = 512 * 1024 * 1024;

/** Tesseract's "fully automatic page segmentation": columns and blocks are found, as on a scanned page. */
const AUTOMATIC_PAGE_SEGMENTATION = '3';

export interface Recognition {
  text: string;
  /** Tesseract's mean word confidence, 0 to 100. */
  confidence: number;
  /** The engine's memory after the page, in bytes (0 when it did not say). */
  engineBytes: number;
}

/** Recognition that ran out of time; the engine was stopped and the next page starts a new one. */
export class RecognitionTimeout extends Error {
  override readonly name = 'RecognitionTimeout';
}

export interface Recogniser {
  /** Starts the engine now, if it is not running, so that it is ready by the time the first page is drawn. */
  prepare(): void;
  /** Reads one bitmap; fails with `RecognitionTimeout` past `timeoutMs`, which includes starting the engine. */
  recognise(bitmap: GreyBitmap, timeoutMs: number): Promise<Recognition>;
  /** Stops the engine's thread; a later page starts a new one. */
  close(): Promise<void>;
}

/**
 * A tesseract.js engine in a thread of its own, started at the first page, reading the given languages (their
 * packs must be installed: see language-packs.ts). Recognition runs in WebAssembly and
 * cannot be interrupted, so a page that takes too long is stopped by terminating the thread.
 */
export function createRecogniser(languages: readonly string[]): Recogniser {
  let engine: Promise<TesseractWorker> | undefined;
  let idle: NodeJS.Timeout | undefined;
  let engineBytes = 0;

  async function start(): Promise<TesseractWorker> {
    const { createWorker, OEM } = await import('tesseract.js');
    const worker = await createWorker([...languages], OEM.LSTM_ONLY, {
      workerPath: THREAD_PATH,
      langPath: LANGUAGE_PATH,
      cacheMethod: 'none',
      gzip: true,
      // Without a handler, tesseract.js rethrows a failed job's error where nothing can catch it.
      errorHandler: () => {},
    });
    // tesseract.js's worker holds the thread it started; its type does not say so.
    (worker as unknown as { worker: Thread }).worker.on('message', (news: Partial<EngineNews>) => {
      if (typeof news.engineBytes === 'number') engineBytes = news.engineBytes;
    });
    await worker.setParameters({ tessedit_pageseg_mode: AUTOMATIC_PAGE_SEGMENTATION as never });
    return worker;
  }

  /** Does not wait for an engine still starting: one whose start hangs is stopped if it ever finishes. */
  async function stop(): Promise<void> {
    clearTimeout(idle);
    engineBytes = 0;
    const stopping = engine;
    engine = undefined;
    void stopping?.then(
      (worker) => worker.terminate(),
      () => {},
    );
  }

  return {
    prepare() {
      clearTimeout(idle);
      engine ??= start();
      // Whoever reads a page waits for it and sees a failure to start; nobody else must be told of it.
      engine.catch(() => {});
    },
    async recognise(bitmap, timeoutMs) {
      clearTimeout(idle);
      engine ??= start();
      const current = engine;
      // A PGM file carries no resolution, which tesseract would otherwise guess (and say so on the console).
      const options = { user_defined_dpi: String(Math.round(bitmap.dpi)) };
      const reading = current.then((worker) => {
        // Stopped while it started (this page ran out of time): tesseract.js fails a job sent to a stopped
        // engine where nothing can catch it.
        if (engine !== current) throw new RecognitionTimeout();
        return worker.recognize(encodePgm(bitmap) as Buffer, options as never, { text: true });
      });
      // A reading that lost the race to the time limit may still fail later, with nobody waiting for it.
      reading.catch(() => {});
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new RecognitionTimeout()), timeoutMs);
      });
      try {
        const { data } = await Promise.race([reading, timeout]);
        const recognition = { text: data.text, confidence: data.confidence, engineBytes };
        if (engineBytes > MAX_ENGINE_BYTES) await stop();
        return recognition;
      } catch (error) {
        // A failed or stopped job may leave the engine in any state: the next page gets a new one.
        if (engine === current) await stop();
        throw error;
      } finally {
        clearTimeout(timer);
        idle = setTimeout(stop, IDLE_MS).unref();
      }
    },
    close: stop,
  };
}
