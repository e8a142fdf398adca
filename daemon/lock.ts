import { mkdir, open, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';

export class LockHeldError extends Error {}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One daemon owns a data directory at a time. The lock file holds the owner's pid; a lock left by a
 * process that no longer runs (killed with SIGKILL) is taken over.
 */
export async function acquireLock(dataDir: string): Promise<{ release(): Promise<void> }> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, 'daemon.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(path, 'wx', 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      return { release: () => unlink(path).catch(() => {}) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number((await readFile(path, 'utf8').catch(() => '')).trim());
      if (owner && isAlive(owner)) {
        throw new LockHeldError(
          `another ckb daemon (pid ${owner}) is already using ${dataDir}; stop it with \`ckb daemon stop\``,
        );
      }
      await unlink(path).catch(() => {});
    }
  }
  throw new LockHeldError(`could not lock ${dataDir}`);
}
