import { closeSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';

interface PendingAppend {
  line: string;
  /** Runs once the line is written, before any later append's callback and before a rotation. */
  onWritten(): void;
  resolve(): void;
  reject(error: unknown): void;
}

/** A segment left by an earlier run, with the entries it holds, in the order they were written. */
export interface JournalSegment {
  path: string;
  entries: unknown[];
}

/**
 * An append-only write-ahead log of JSON lines, in numbered segment files. An append is acknowledged once it is
 * written to the file, so it survives the daemon crashing or being killed. Appends made in one turn of the event
 * loop go out in one write.
 *
 * Writes are synchronous and not fsync'ed, on purpose. LanceDB does not fsync its own files either, so an fsync
 * here would promise nothing more after a power cut; and under ingestion's disk load, threadpool writes and
 * fsyncs took 5 ms each and queued every upload behind them, where a synchronous append to the page cache
 * takes microseconds. The owner moves what a segment holds elsewhere, then deletes it; segments found at open
 * are replayed.
 */
export class Journal {
  private readonly directory: string;
  private readonly name: string;
  private fd: number;
  private sequence: number;
  private size = 0;
  private pending: PendingAppend[] = [];
  private flushScheduled = false;
  private closed = false;
  /** Set when a failed write could not be undone: appending after torn bytes would corrupt later entries. */
  private broken: Error | undefined;

  private constructor(directory: string, name: string, fd: number, sequence: number) {
    this.directory = directory;
    this.name = name;
    this.fd = fd;
    this.sequence = sequence;
  }

  /** Opens a fresh segment after the segments found, which are returned for the owner to replay. */
  static async open(directory: string, name: string): Promise<{ journal: Journal; found: JournalSegment[] }> {
    await mkdir(directory, { recursive: true, mode: 0o700 });
    const found = await readSegments(directory, name);
    const last = found.at(-1);
    const sequence = last ? sequenceOf(last.path, name) + 1 : 1;
    const fd = openSync(segmentPath(directory, name, sequence), 'a', 0o600);
    return { journal: new Journal(directory, name, fd, sequence), found };
  }

  /** Resolves once `entry` is written; `onWritten` runs just before, in append order. */
  append(entry: unknown, onWritten: () => void): Promise<void> {
    if (this.broken) return Promise.reject(this.broken);
    if (this.closed) return Promise.reject(new Error(`the ${this.name} journal is closed`));
    return new Promise((resolve, reject) => {
      this.pending.push({ line: `${JSON.stringify(entry)}\n`, onWritten, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        queueMicrotask(() => this.flush());
      }
    });
  }

  /**
   * Starts a new segment: every earlier append is in the closed one (whose path is returned), every later one
   * in the new.
   */
  rotate(): string {
    this.flush();
    const closed = this.currentSegment;
    const next = openSync(segmentPath(this.directory, this.name, this.sequence + 1), 'a', 0o600);
    closeSync(this.fd);
    this.fd = next;
    this.sequence += 1;
    this.size = 0;
    return closed;
  }

  /** Deletes segments whose entries the owner has stored elsewhere. */
  async remove(paths: string[]): Promise<void> {
    for (const path of paths) await rm(path, { force: true });
  }

  /** Writes what is pending, then closes the current segment (left in place, to be replayed at next open). */
  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    closeSync(this.fd);
  }

  /** The path of the segment being written. */
  get currentSegment(): string {
    return segmentPath(this.directory, this.name, this.sequence);
  }

  private flush(): void {
    this.flushScheduled = false;
    const group = this.pending;
    this.pending = [];
    if (group.length === 0) return;
    if (this.broken) {
      for (const append of group) append.reject(this.broken);
      return;
    }
    const bytes = Buffer.from(group.map((append) => append.line).join(''));
    try {
      for (let written = 0; written < bytes.length; ) written += writeSync(this.fd, bytes, written);
    } catch (error) {
      this.undoPartialWrite();
      for (const append of group) append.reject(error);
      return;
    }
    this.size += bytes.length;
    for (const append of group) append.onWritten();
    for (const append of group) append.resolve();
  }

  /** A failed write (a full disk) may have left part of a line, which must go before anything follows it. */
  private undoPartialWrite(): void {
    try {
      ftruncateSync(this.fd, this.size);
    } catch (error) {
      this.broken = new Error(`the ${this.name} journal cannot be repaired after a failed write`, {
        cause: error,
      });
    }
  }
}

function segmentPath(directory: string, name: string, sequence: number): string {
  return join(directory, `${name}.${String(sequence).padStart(8, '0')}.log`);
}

function sequenceOf(path: string, name: string): number {
  return Number(basename(path).slice(name.length + 1, -'.log'.length));
}

async function readSegments(directory: string, name: string): Promise<JournalSegment[]> {
  // Numeric order: a daemon writing for years outgrows the zero padding, and then names no longer sort.
  const pattern = new RegExp(`^${name}\\.\\d{8,}\\.log$`);
  const files = (await readdir(directory))
    .filter((file) => pattern.test(file))
    .sort((left, right) => sequenceOf(left, name) - sequenceOf(right, name));
  const segments: JournalSegment[] = [];
  for (const file of files) {
    const path = join(directory, file);
    segments.push({ path, entries: parseEntries(await readFile(path, 'utf8'), path) });
  }
  return segments;
}

/**
 * Every complete line is an acknowledged entry. Only the last line can be incomplete (a crash during its write),
 * and it was never acknowledged, so it is dropped.
 */
function parseEntries(text: string, path: string): unknown[] {
  const lines = text.split('\n');
  lines.pop();
  return lines.map((line, index) => {
    try {
      return JSON.parse(line) as unknown;
    } catch (error) {
      throw new Error(`${path} is damaged at line ${index + 1}; restore it from a backup`, { cause: error });
    }
  });
}
