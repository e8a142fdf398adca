import ora from 'ora';
import type { Source } from '../api/index.ts';
import type { CkbClient } from '../client/index.ts';
import type { Output } from './output.ts';

const POLL_MS = 500;

function delay(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}

function isSettled(source: Source): boolean {
  return source.embed_status === 'COMPLETED' || source.embed_status === 'FAILED';
}

function progress(sources: readonly Source[]): string {
  return sources
    .map(
      (source) =>
        `${source.name}: ${source.embed_status.toLowerCase()}, ${source.pages} pages, ${source.chunks} chunks`,
    )
    .join(' | ');
}

/** Polls until every source is COMPLETED or FAILED, showing progress on stderr; returns their final state. */
export async function waitForSources(
  client: CkbClient,
  ids: readonly string[],
  output: Output,
): Promise<Source[]> {
  const spinner = ora({
    stream: process.stderr,
    isSilent: output.quiet,
    // Off a terminal the spinner's frames are noise; only the final line is printed.
    isEnabled: process.stderr.isTTY === true,
    // Raw mode would swallow Ctrl-C; the default SIGINT handling must keep working while waiting.
    discardStdin: false,
  }).start('waiting for ingestion…');
  try {
    for (;;) {
      const sources = await Promise.all(ids.map((id) => client.sources.get(id)));
      spinner.text = progress(sources);
      if (sources.every(isSettled)) {
        const failed = sources.filter((source) => source.embed_status === 'FAILED');
        if (failed.length === 0) spinner.succeed(progress(sources));
        else spinner.fail(progress(sources));
        return sources;
      }
      await delay(POLL_MS);
    }
  } catch (error) {
    spinner.stop();
    throw error;
  }
}
