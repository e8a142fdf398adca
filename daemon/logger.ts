import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  log(level: LogLevel, message: string, fields?: Record<string, unknown>): void;
  close(): Promise<void>;
}

/** Structured JSON lines, one per event, appended to the daemon's log file. */
export function createFileLogger(path: string): Logger {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const stream: WriteStream = createWriteStream(path, { flags: 'a', mode: 0o600 });
  return {
    log(level, message, fields = {}) {
      stream.write(`${JSON.stringify({ time: new Date().toISOString(), level, message, ...fields })}\n`);
    },
    close: () => new Promise((resolve) => stream.end(resolve)),
  };
}

export const silentLogger: Logger = { log() {}, close: async () => {} };
