import { execFile } from 'node:child_process';
import { open } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Makes everything written to the file system that holds `path` durable (syncfs), for writers that do not
 * fsync their own files: LanceDB writes a commit's data, manifest and index files without it, so without this a
 * power cut could lose chunks their source's durable SQL row already counts. `sync -f` is coreutils' syncfs(2);
 * where it is missing (not Linux), a whole-system `sync` does the same for more.
 */
export async function syncFileSystem(path: string): Promise<void> {
  try {
    await run('sync', ['-f', path]);
  } catch {
    await run('sync', []);
  }
}

/** Makes a directory's entries durable (a file just renamed into it), as fsync of the file alone does not. */
export async function syncDirectory(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
