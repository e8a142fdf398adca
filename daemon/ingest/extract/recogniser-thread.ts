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
    parentPort?.postMessage(message);
    // tesseract.js waits without end for an engine whose language failed to load (the caller's time limit ends
    // the wait): ending this thread at once frees what it holds.
    const { action, status } = message as Reply;
    if (status === 'reject' && (action === 'loadLanguage' || action === 'initialize')) process.exit(1);
  });
});
