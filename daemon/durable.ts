import { execFile } from 'node:child_process';
import { open, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Makes everything written to the file system that holds `path` durable (syncfs). `sync -f` is coreutils'
 * syncfs(2); where it is missing (not Linux), a whole-system `sync` does the same for more.
 */
async function syncFileSystem(path: string): Promise<void> {
  try {
    await run('sync', ['-f', path]);
  } catch {
    await run('sync', []);
  }
}

/** Makes a directory's entries durable (a file just renamed into it), as fsync of the file alone does not. */
export async function syncDirectory(path: string): Promise<void> {
  await syncPath(path);
}

async function syncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Every file and directory below `root`, relative to it; directories end in `/`. */
async function entriesBelow(root: string): Promise<Set<string>> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return new Set(
    entries.map((entry) => {
      const path = join(entry.parentPath, entry.name).slice(root.length + 1);
      return entry.isDirectory() ? `${path}/` : path;
    }),
  );
}

/**
 * Syncs of a directory tree whose writer does not fsync its own files: LanceDB writes a commit's data, manifest
 * and index files without it, so without this a power cut could lose chunks their source's durable SQL row
 * already counts. LanceDB never rewrites a file, so each call fsyncs only what was added since the last one,
 * and the directories that list it; the first call syncs the file system once, for what earlier processes
 * wrote. (A syncfs per commit took a process each, `sync -f`: 3.4 s of the main thread's CPU in a
 * 10,000-source ingestion, and it flushed everything else on the disk too.) No writer may be at work during a
 * call: a file caught half-written would be synced and then taken for done.
 */
export function createTreeSync(root: string): () => Promise<void> {
  let known: Set<string> | undefined;
  return async () => {
    if (!known) {
      await syncFileSystem(root);
      known = await entriesBelow(root);
      return;
    }
    const now = await entriesBelow(root);
    const added = [...now].filter((path) => !known!.has(path));
    // A new entry's directory lists it; a new directory is itself listed by its parent.
    const listing = new Set(added.map((path) => dirname(path.replace(/\/$/, ''))));
    await Promise.all(added.filter((path) => !path.endsWith('/')).map((path) => syncPath(join(root, path))));
    await Promise.all([...listing].map((path) => syncPath(join(root, path))));
    known = now;
  };
}
