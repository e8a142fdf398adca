import { appendFileSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  log(level: LogLevel, message: string, fields?: Record<string, unknown>): void;
  close(): Promise<void>;
}

const FLUSH_INTERVAL_MS = 200;
const FLUSH_BYTES = 64 * 1024;

export interface RotationOptions {
  /** Past this size the log is renamed `daemon.log.1` (older ones shifting up) and a new one begun. */
  maxBytes: number;
  /** Rotated files kept; the oldest beyond them is deleted. */
  keep: number;
}

export const DEFAULT_ROTATION: RotationOptions = { maxBytes: 10 * 1024 * 1024, keep: 3 };

/** `daemon.log` → `daemon.log.1` → … → `daemon.log.<keep>`, the last one dropped. */
function rotate(path: string, keep: number): void {
  rmSync(`${path}.${keep}`, { force: true });
  for (let index = keep - 1; index >= 1; index -= 1) {
    try {
      renameSync(`${path}.${index}`, `${path}.${index + 1}`);
    } catch {}
  }
  try {
    renameSync(path, `${path}.1`);
  } catch {}
}

let lastMillisecond = 0;
let lastTime = '';

/** Formatting a date costs more than the rest of a log line; under load many lines share a millisecond. */
function isoNow(): string {
  const now = Date.now();
  if (now !== lastMillisecond) {
    lastMillisecond = now;
    lastTime = new Date(now).toISOString();
  }
  return lastTime;
}

/** One JSON object per line, built without copying `fields` into a new object (this runs for every request). */
function formatLine(level: LogLevel, message: string, fields: Record<string, unknown>): string {
  const rest = JSON.stringify(fields);
  const head = `{"time":"${isoNow()}","level":"${level}","message":${JSON.stringify(message)}`;
  return rest === '{}' ? `${head}}\n` : `${head},${rest.slice(1)}\n`;
}

/**
 * Structured JSON lines, one per event, appended to the daemon's log file. Lines are gathered and
 * written together every 200 ms: one write per request line cost a quarter of the CPU under load.
 * Errors are written at once, so the line explaining a crash is never lost in the buffer.
 */
export function createFileLogger(path: string, rotation: RotationOptions = DEFAULT_ROTATION): Logger {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  let buffer = '';
  let writing: Promise<void> = Promise.resolve();
  let size = statSync(path, { throwIfNoEntry: false })?.size ?? 0;

  /** Called just before each append, in write order, so a rotation never splits a line between two files. */
  function makeRoom(text: string): void {
    const bytes = Buffer.byteLength(text);
    if (size > 0 && size + bytes > rotation.maxBytes) {
      rotate(path, rotation.keep);
      size = 0;
    }
    size += bytes;
  }

  /**
   * The text's lines in runs that each fit the file they go to: the room left in the current one, then a whole
   * file's. Lines gathered while the process was busy may come to more than a file holds.
   */
  function runs(text: string): string[] {
    const fitting: string[] = [];
    let run = '';
    let used = size;
    for (const line of text.split(/(?<=\n)/)) {
      const bytes = Buffer.byteLength(line);
      if (used > 0 && used + bytes > rotation.maxBytes) {
        if (run !== '') fitting.push(run);
        run = '';
        used = 0;
      }
      run += line;
      used += bytes;
    }
    if (run !== '') fitting.push(run);
    return fitting;
  }

  function flush(): Promise<void> {
    if (buffer === '') return writing;
    const text = buffer;
    buffer = '';
    writing = writing
      .then(async () => {
        for (const run of runs(text)) {
          makeRoom(run);
          await appendFile(path, run, { mode: 0o600 });
        }
      })
      .catch(() => {});
    return writing;
  }

  const timer = setInterval(flush, FLUSH_INTERVAL_MS);
  timer.unref();
  return {
    log(level, message, fields = {}) {
      const line = formatLine(level, message, fields);
      if (level === 'error') {
        buffer += line;
        const text = buffer;
        buffer = '';
        for (const run of runs(text)) {
          makeRoom(run);
          appendFileSync(path, run, { mode: 0o600 });
        }
        return;
      }
      buffer += line;
      if (buffer.length > FLUSH_BYTES) void flush();
    },
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
