import type { Source } from '../api/index.ts';
import type { CkbClient } from '../client/index.ts';
import { ExitError } from './exit.ts';
import type { Output } from './output.ts';
import { count, startSpinner } from './spinner.ts';

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
  return `${source.name}: ${source.embed_status.toLowerCase()}, ${source.pages} pages, ${source.chunks} chunks`;
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

/** One request per poll, however many sources: one GET for a single source, else the application's list. */
async function current(client: CkbClient, applicationId: string, ids: readonly string[]): Promise<Source[]> {
  const [only] = ids;
  if (ids.length === 1 && only !== undefined) return [await client.sources.get(only)];
  const listed = new Map(
    (await client.applications.sources(applicationId)).map((source) => [source.id, source]),
  );
  return ids.map((id) => {
    const source = listed.get(id);
    if (source === undefined) throw new ExitError(`source ${id} was deleted while waiting for it`);
    return source;
  });
}

/** Polls until every source is COMPLETED or FAILED, showing progress on stderr; returns their final state. */
export async function waitForSources(
  client: CkbClient,
  applicationId: string,
  ids: readonly string[],
  output: Output,
): Promise<Source[]> {
  const spinner = startSpinner(output, 'waiting for ingestion…');
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
  }
}
