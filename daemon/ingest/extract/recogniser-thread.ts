// The recogniser's thread: tesseract.js's own engine script, which its Node worker runs, given file access of our
// own. Language packs are read from their npm packages whatever path tesseract.js asks for, nothing is cached
// or written, and any download is refused, so recognition works with no network and never tries one.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { parentPort } from 'node:worker_threads';
import { gunzipSync } from 'node:zlib';
import { languagePackFile } from './language-packs.ts';

interface Engine {
  setAdapter(adapter: object): void;
  dispatchHandlers(packet: unknown, send: (message: unknown) => void): void;
}

/** What this thread tells its starter besides tesseract.js's own replies (which tesseract.js ignores). */
export interface EngineNews {
  /** The size of the engine's WebAssembly memory, which grows with the largest page read and never shrinks. */
  engineBytes: number;
}

// The engine's memory is its own (emscripten does not hand it out): it is caught as the engine is instantiated.
// (The project's type libraries leave WebAssembly out, so the little used of it is typed here.)
interface WebAssemblyApi {
  instantiate(...args: unknown[]): Promise<{ instance: { exports: object } } | { exports: object }>;
  Memory: abstract new (...args: never[]) => { buffer: ArrayBuffer };
}
const wasm = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly;
let memory: { buffer: ArrayBuffer } | undefined;
const instantiate = wasm.instantiate.bind(wasm);
wasm.instantiate = async (...args) => {
  const result = await instantiate(...args);
  const exports = 'instance' in result ? result.instance.exports : result.exports;
  memory = Object.values(exports).find((value) => value instanceof wasm.Memory) ?? memory;
  return result;
};

const require = createRequire(import.meta.url);
const engine = require('tesseract.js/src/worker-script/index.js') as Engine;
const getCore = require('tesseract.js/src/worker-script/node/getCore.js') as unknown;

async function readLanguagePack(path: string): Promise<Uint8Array> {
  const code = basename(path).replace(/\.traineddata(\.gz)?$/, '');
  const file = languagePackFile(code);
  if (!file) throw new Error(`the language pack "${code}" is not installed`);
  return readFile(file);
}

engine.setAdapter({
  getCore,
  gunzip: gunzipSync,
  fetch: (url: string) => Promise.reject(new Error(`text recognition does not download (${url})`)),
  readCache: readLanguagePack,
  writeCache: async () => {},
  deleteCache: async () => {},
  checkCache: async () => false,
});

// The engine's own errors would reach the thread that started this one as an 'error' event nobody listens to
// (tesseract.js does not), and end it too. Ending this thread instead leaves its caller to time the page out.
process.on('uncaughtException', () => process.exit(1));
process.on('unhandledRejection', () => process.exit(1));

interface Reply {
  action?: string;
  status?: string;
}

parentPort?.on('message', (packet: unknown) => {
  engine.dispatchHandlers(packet, (message) => {
    const { action, status } = message as Reply;
    if (action === 'recognize' && status !== 'progress' && memory) {
      const news: EngineNews = { engineBytes: memory.buffer.byteLength };
      parentPort?.postMessage(news);
    }
    parentPort?.postMessage(message);
    // tesseract.js waits without end for an engine whose language failed to load (the caller's time limit ends
    // the wait): ending this thread at once frees what it holds.
    if (status === 'reject' && (action === 'loadLanguage' || action === 'initialize')) process.exit(1);
  });
});
