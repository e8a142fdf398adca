import { type FSWatcher, statSync, watch } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { EXIT, onInterrupt } from './exit.ts';
import { describe } from './failure.ts';
import { expandFilePaths, sourceNameOf } from './file-paths.ts';
import { applySync, type HashCache, planSync, summary } from './folder-sync.ts';
import type { Session } from './session.ts';

/** Editors save in bursts (a temporary file, a rename, a change of mode): one sync after the burst. */
const DEBOUNCE_MS = 300;

/**
 * `ckb watch`: syncs the paths now, then again after every burst of changes under them, one sync at a time,
 * printing what each changed. Runs until Ctrl-C.
 */
export async function watchFolders(
  session: Session,
  paths: string[],
  flags: { app: string; delete?: boolean },
): Promise<void> {
  const { output } = session;
  const cache: HashCache = new Map();
  let running: Promise<void> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  /** Sources whose file is gone, told once each. */
  const reported = new Set<string>();

  /** One sync, printing each change with the time it was made; returns its counts. */
  const syncOnce = async () => {
    const expanded = expandFilePaths(paths);
    // A folder gone for a moment (a branch switched, a folder moved back) must not look like every file deleted.
    if (!expanded.ok) {
      output.warn(`${expanded.error}; nothing synced until it is back`);
      return { added: 0, updated: 0, unchanged: 0, removed: 0 };
    }
    const files = expanded.value.map((file) => ({ path: file.path, name: sourceNameOf(file) }));
    const plan = await planSync(session, flags.app, paths, files, cache);
    const result = await applySync(session, flags.app, plan, flags);
    const time = new Date().toTimeString().slice(0, 8);
    for (const [verb, sources] of [
      ['added', result.added],
      ['updated', result.updated],
      ['removed', result.removed],
    ] as const)
      for (const source of sources) output.line(`${time} ${verb.padEnd(8)} ${source.name}  ${source.id}`);
    if (!flags.delete)
      for (const source of plan.gone.filter((gone) => !reported.has(gone.id))) {
        reported.add(source.id);
        output.notice(`${time} ${source.name} has no file any more; its source stays (--delete removes it)`);
      }
    return {
      added: result.added.length,
      updated: result.updated.length,
      unchanged: result.unchanged.length,
      removed: result.removed.length,
    };
  };

  const run = (): void => {
    if (running) {
      again = true;
      return;
    }
    running = syncOnce()
      .then(() => undefined)
      .catch((error: unknown) => {
        output.warn(`sync failed: ${describe(error)}; trying again at the next change`);
      })
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          run();
        }
      });
  };

  output.notice(`${summary(await syncOnce())}; watching ${paths.join(', ')} (Ctrl-C stops)`);

  const watchers: FSWatcher[] = paths.map((path) => {
    const folder = statSync(path).isDirectory();
    const target = folder ? path : dirname(resolve(path));
    const only = folder ? undefined : basename(path);
    const watcher = watch(target, { recursive: folder }, (_event, name) => {
      if (only !== undefined && name !== only) return;
      clearTimeout(timer);
      timer = setTimeout(run, DEBOUNCE_MS);
    });
    // A watched folder deleted or moved away ends its watch; the others go on.
    watcher.on('error', (error) => output.warn(`stopped watching ${path}: ${error.message}`));
    return watcher;
  });
  await new Promise<void>(() => {
    onInterrupt(() => {
      clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
      output.notice('stopped watching');
      process.exit(EXIT.interrupted);
    });
  });
}
