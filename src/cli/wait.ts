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

/** Sources per page of a list (the API's most). */
const PAGE = 1_000;
/**
 * A wait that sees no source move for this long gives up: a stuck daemon, or a source far slower than it
 * should be, is worth a message more than a spinner for ever. Ingestion goes on either way.
 */
const STALL_MS = 10 * 60_000;

/** Every source of an application in one state, page by page. */
async function listAll(
  client: CkbClient,
  applicationId: string,
  status: Source['embed_status'],
): Promise<Source[]> {
  const all: Source[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await client.sources.list({
      application_id: applicationId,
      status,
      limit: PAGE,
      ...(after ? { after } : {}),
    });
    all.push(...page);
    if (page.length < PAGE) return all;
    after = page.at(-1)!.id;
  }
}

function describeDuration(milliseconds: number): string {
  return milliseconds >= 60_000 ? `${milliseconds / 60_000} minutes` : `${milliseconds / 1000} s`;
}

/** Where a wait stands: every source settled, or how far it is (and what changes when it moves). */
type Poll = { settled: Source[] } | { progress: string; fingerprint: string };

/** What changes while a source moves: its status, its progress message, its last update. */
function fingerprint(sources: readonly Source[]): string {
  return sources
    .map(
      (source) => `${source.id}:${source.embed_status}:${source.updated_at}:${source.embed_status_message}`,
    )
    .join('|');
}

function pollOf(sources: Source[]): Poll {
  return sources.every(isSettled)
    ? { settled: sources }
    : { progress: progress(sources), fingerprint: fingerprint(sources) };
}

/**
 * One source is one GET; sources without an application one GET each; many sources of an application are the
 * lists of those PENDING, PROCESSING and FAILED (a few requests however large the application, rather than its
 * every source each time), the rest being COMPLETED, and the whole list once all have settled.
 */
async function poll(
  client: CkbClient,
  applicationId: string | undefined,
  ids: readonly string[],
): Promise<Poll> {
  const [only] = ids;
  if (ids.length === 1 && only !== undefined) return pollOf([await client.sources.get(only)]);
  if (applicationId === undefined) return pollOf(await Promise.all(ids.map((id) => client.sources.get(id))));
  const waited = new Set(ids);
  const inState = async (status: Source['embed_status']) =>
    (await listAll(client, applicationId, status)).filter((source) => waited.has(source.id));
  const unsettled = [...(await inState('PENDING')), ...(await inState('PROCESSING'))];
  if (unsettled.length === 0) return { settled: await settled(client, applicationId, ids) };
  const failed = (await inState('FAILED')).length;
  const completed = ids.length - unsettled.length - failed;
  const failures = failed > 0 ? `, ${count(failed)} failed` : '';
  return {
    progress: `${count(completed)}/${count(ids.length)} completed${failures}`,
    fingerprint: `${fingerprint(unsettled)}|${failed}`,
  };
}

/** The final state of every waited source, from the application's list, page by page. */
async function settled(client: CkbClient, applicationId: string, ids: readonly string[]): Promise<Source[]> {
  const all = new Map<string, Source>();
  let after: string | undefined;
  for (;;) {
    const page = await client.applications.sources(applicationId, {
      limit: PAGE,
      ...(after ? { after } : {}),
    });
    for (const source of page) all.set(source.id, source);
    if (page.length < PAGE) break;
    after = page.at(-1)!.id;
  }
  return ids.map((id) => {
    const source = all.get(id);
    if (source === undefined) throw new ExitError(`source ${id} was deleted while waiting for it`);
    return source;
  });
}

export interface WaitOptions {
  /** The arguments of `ckb source wait` that follow these sources again, told on Ctrl-C. */
  reattach: string;
  /** How long no source may move before the wait gives up (STALL_MS). */
  stallMs?: number;
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
    let last = '';
    let lastChange = Date.now();
    for (;;) {
      const state = await poll(client, applicationId, ids);
      if ('settled' in state) {
        const sources = state.settled;
        const failed = sources.some((source) => source.embed_status === 'FAILED');
        if (failed) spinner.fail(progress(sources));
        else spinner.succeed(progress(sources));
        return sources;
      }
      spinner.text = state.progress;
      if (state.fingerprint !== last) {
        last = state.fingerprint;
        lastChange = Date.now();
      } else if (Date.now() - lastChange > (options.stallMs ?? STALL_MS)) {
        spinner.stop();
        throw new ExitError(
          `no source moved in ${describeDuration(options.stallMs ?? STALL_MS)}, so ckb stopped waiting; ingestion goes on in the daemon (see \`ckb daemon logs\`): follow it again with \`ckb source wait ${options.reattach}\``,
        );
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
