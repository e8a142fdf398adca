import type { Source } from '../api/index.ts';
import type { CkbClient } from '../client/index.ts';
import { EXIT, ExitError, onInterrupt } from './exit.ts';
import type { Output } from './output.ts';
import { count, plural } from './output.ts';
import { startSpinner } from './spinner.ts';

const POLL_MS = 500;

function delay(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}

function isSettled(source: Source): boolean {
  return source.embed_status === 'COMPLETED' || source.embed_status === 'FAILED';
}

function detail(source: Source): string {
  // While processing, the message says how far it is (scanned pages recognised so far), when there is news.
  if (source.embed_status === 'PROCESSING' && source.embed_status_message) {
    return `${source.name}: processing, ${source.embed_status_message}`;
  }
  return `${source.name}: ${source.embed_status.toLowerCase()}, ${plural(source.pages, 'page')}, ${plural(source.chunks, 'chunk')}`;
}

/** Many sources' details would not fit on a line; their totals do. */
function totals(sources: readonly Source[]): string {
  const completed = sources.filter((source) => source.embed_status === 'COMPLETED').length;
  const failed = sources.filter((source) => source.embed_status === 'FAILED').length;
  const failures = failed > 0 ? `, ${count(failed)} failed` : '';
  return `${count(completed)}/${count(sources.length)} completed${failures}`;
}

function progress(sources: readonly Source[]): string {
  const [only] = sources;
  return sources.length === 1 && only !== undefined ? detail(only) : totals(sources);
}

/**
 * One request per poll, however many sources: one GET for a single source, else the application's list (without
 * an application, one GET per source).
 */
async function current(
  client: CkbClient,
  applicationId: string | undefined,
  ids: readonly string[],
): Promise<Source[]> {
  const [only] = ids;
  if (ids.length === 1 && only !== undefined) return [await client.sources.get(only)];
  if (applicationId === undefined) return Promise.all(ids.map((id) => client.sources.get(id)));
  const listed = new Map(
    (await client.applications.sources(applicationId)).map((source) => [source.id, source]),
  );
  return ids.map((id) => {
    const source = listed.get(id);
    if (source === undefined) throw new ExitError(`source ${id} was deleted while waiting for it`);
    return source;
  });
}

export interface WaitOptions {
  /** The arguments of `ckb source wait` that follow these sources again, told on Ctrl-C. */
  reattach: string;
}

/**
 * Polls until every source is COMPLETED or FAILED, showing progress on stderr; returns their final state.
 * Ctrl-C stops the waiting, not the ingestion, and says so.
 */
export async function waitForSources(
  client: CkbClient,
  applicationId: string | undefined,
  ids: readonly string[],
  output: Output,
  options: WaitOptions,
): Promise<Source[]> {
  const spinner = startSpinner(output, 'waiting for ingestion…');
  const restore = onInterrupt(() => {
    spinner.stop();
    output.warn(
      `stopped waiting; ingestion goes on in the daemon: follow it again with \`ckb source wait ${options.reattach}\``,
    );
    process.exit(EXIT.interrupted);
  });
  try {
    for (;;) {
      const sources = await current(client, applicationId, ids);
      spinner.text = progress(sources);
      if (sources.every(isSettled)) {
        const failed = sources.some((source) => source.embed_status === 'FAILED');
        if (failed) spinner.fail(progress(sources));
        else spinner.succeed(progress(sources));
        return sources;
      }
      await delay(POLL_MS);
    }
  } catch (error) {
    spinner.stop();
    throw error;
  } finally {
    restore();
  }
}
