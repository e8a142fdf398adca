import { once } from 'node:events';
import { createReadStream, existsSync, statSync, watchFile } from 'node:fs';
import { daemonLogPath } from './daemon-process.ts';
import { ExitError } from './exit.ts';

async function copyRange(path: string, start: number, end: number): Promise<void> {
  if (end <= start) return;
  const stream = createReadStream(path, { start, end: end - 1 });
  stream.pipe(process.stdout, { end: false });
  await once(stream, 'end');
}

/** Prints the log; with follow, polls for appended bytes (and restarts from 0 when the file is rotated). */
export async function printLog(home: string, follow: boolean): Promise<void> {
  const path = daemonLogPath(home);
  if (!existsSync(path) && !follow) throw new ExitError(`no log yet at ${path}`);
  let printed = existsSync(path) ? statSync(path).size : 0;
  await copyRange(path, 0, printed);
  if (!follow) return;
  let copying = Promise.resolve();
  watchFile(path, { interval: 250 }, (current) => {
    copying = copying.then(async () => {
      if (current.size < printed) printed = 0;
      const end = current.size;
      await copyRange(path, printed, end);
      printed = end;
    });
  });
  await new Promise<never>(() => undefined);
}
