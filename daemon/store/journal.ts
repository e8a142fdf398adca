import { type FileHandle, mkdir, open, readdir, readFile, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';

interface QueuedAppend {
  line: string;
  /** Runs once the line is durable, before any later append's callback and before a rotation. */
  onDurable(): void;
  resolve(): void;
  reject(error: unknown): void;
}

interface QueuedRotation {
  rotation: true;
  /** Runs at the switch: every earlier append is in the closed segment, every later one in the new. */
  onRotate(): void;
  resolve(closedSegment: string): void;
  reject(error: unknown): void;
}

type Queued = QueuedAppend | QueuedRotation;

/** A segment left by an earlier run, with the entries it holds, in the order they were written. */
export interface JournalSegment {
  path: string;
  entries: unknown[];
}

/**
 * An append-only write-ahead log of JSON lines, in numbered segment files. An append is acknowledged only once
 * it is on disk (written and fdatasync'ed); appends that arrive while one is being written go into the next
 * write together, so a burst of thousands of small writes costs a few fsyncs of well under a millisecond each.
 * The owner moves what a segment holds elsewhere, then deletes it; segments found at start are replayed.
 */
export class Journal {
  private readonly directory: string;
  private readonly name: string;
  private handle: FileHandle;
  private sequence: number;
  private size = 0;
  private queue: Queued[] = [];
  private writing: Promise<void> | undefined;
  /** Set when a failed write could not be undone: appending after torn bytes would corrupt later entries. */
  private broken: Error | undefined;

  private constructor(directory: string, name: string, handle: FileHandle, sequence: number) {
    this.directory = directory;
    this.name = name;
    this.handle = handle;
    this.sequence = sequence;
  }

  /** Opens a fresh segment after the segments found, which are returned for the owner to replay. */
  static async open(directory: string, name: string): Promise<{ journal: Journal; found: JournalSegment[] }> {
    await mkdir(directory, { recursive: true, mode: 0o700 });
    const found = await readSegments(directory, name);
    const last = found.at(-1);
    const sequence = last ? sequenceOf(last.path, name) + 1 : 1;
    const handle = await openSegment(directory, segmentPath(directory, name, sequence));
    return { journal: new Journal(directory, name, handle, sequence), found };
  }

  /** Resolves once `entry` is durable; `onDurable` runs just before, in append order. */
  append(entry: unknown, onDurable: () => void): Promise<void> {
    if (this.broken) return Promise.reject(this.broken);
    return new Promise((resolve, reject) => {
      this.queue.push({ line: `${JSON.stringify(entry)}\n`, onDurable, resolve, reject });
      this.writing ??= this.drain();
    });
  }

  /** Starts a new segment after every earlier append; resolves with the closed segment's path. */
  rotate(onRotate: () => void): Promise<string> {
    return new Promise((resolve, reject) => {
      this.queue.push({ rotation: true, onRotate, resolve, reject });
      this.writing ??= this.drain();
    });
  }

  /** Deletes segments whose entries the owner has stored elsewhere. */
  async remove(paths: string[]): Promise<void> {
    for (const path of paths) await rm(path, { force: true });
  }

  /** Waits for queued appends, then closes the current segment (left in place, to be replayed at next open). */
  async close(): Promise<void> {
    await this.writing;
    await this.handle.close();
  }

  /** The path of the segment being written. */
  get currentSegment(): string {
    return segmentPath(this.directory, this.name, this.sequence);
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const head = this.queue[0]!;
      if ('rotation' in head) {
        this.queue.shift();
        await this.switchSegment(head);
        continue;
      }
      const end = this.queue.findIndex((queued) => 'rotation' in queued);
      const group = this.queue.splice(0, end === -1 ? this.queue.length : end) as QueuedAppend[];
      await this.writeGroup(group);
    }
    this.writing = undefined;
  }

  private async writeGroup(group: QueuedAppend[]): Promise<void> {
    if (this.broken) {
      for (const queued of group) queued.reject(this.broken);
      return;
    }
    const bytes = Buffer.from(group.map((queued) => queued.line).join(''));
    try {
      await this.handle.write(bytes);
      await this.handle.datasync();
    } catch (error) {
      await this.undoPartialWrite();
      for (const queued of group) queued.reject(error);
      return;
    }
    this.size += bytes.length;
    for (const queued of group) queued.onDurable();
    for (const queued of group) queued.resolve();
  }

  /** A failed write (a full disk) may have left part of a line, which must go before anything follows it. */
  private async undoPartialWrite(): Promise<void> {
    try {
      await this.handle.truncate(this.size);
    } catch (error) {
      this.broken = new Error(`the ${this.name} journal cannot be repaired after a failed write`, {
        cause: error,
      });
    }
  }

  private async switchSegment(rotation: QueuedRotation): Promise<void> {
    const closed = this.currentSegment;
    try {
      const next = await openSegment(
        this.directory,
        segmentPath(this.directory, this.name, this.sequence + 1),
      );
      await this.handle.close();
      this.handle = next;
      this.sequence += 1;
      this.size = 0;
    } catch (error) {
      rotation.reject(error);
      return;
    }
    rotation.onRotate();
    rotation.resolve(closed);
  }
}

function segmentPath(directory: string, name: string, sequence: number): string {
  return join(directory, `${name}.${String(sequence).padStart(8, '0')}.log`);
}

function sequenceOf(path: string, name: string): number {
  return Number(basename(path).slice(name.length + 1, -'.log'.length));
}

/** Creates a segment and makes its directory entry durable, so a crash cannot lose the file itself. */
async function openSegment(directory: string, path: string): Promise<FileHandle> {
  const handle = await open(path, 'a', 0o600);
  const directoryHandle = await open(directory, 'r');
  try {
    await directoryHandle.sync();
  } finally {
    await directoryHandle.close();
  }
  return handle;
}

async function readSegments(directory: string, name: string): Promise<JournalSegment[]> {
  const pattern = new RegExp(`^${name}\\.\\d{8}\\.log$`);
  const files = (await readdir(directory)).filter((file) => pattern.test(file)).sort();
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
