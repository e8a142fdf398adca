import { contextHash } from '../ingest/content-hash.ts';
import type { PreparedSource, PrepareSourceOptions } from '../ingest/prepare-source.ts';
import { previousFetches } from '../ingest/web/previous.ts';
import type { Store } from '../store/index.ts';
import type { ClaimedJob, Completion } from '../store/jobs.ts';
import type { SourceRecord } from '../store/records.ts';
import { type LiveVersion, liveVersion } from '../store/source-versions.ts';

/** What an attempt takes from its source's live version, so that what has not changed is not done again. */
export interface Refresh {
  live: LiveVersion | undefined;
  options: Pick<PrepareSourceOptions, 'previous' | 'reusable' | 'liveHash'>;
}

/**
 * The live version of a source, before an attempt reads it: its web pages and their validators (to ask each
 * server whether a page changed), its content hash (an unchanged web source keeps its chunks), and its vectors
 * (chunks whose text is unchanged are not embedded again). Vectors of another embedder are no use.
 */
export async function refreshOf(
  store: Store,
  embedderId: string,
  job: Pick<ClaimedJob, 'source' | 'replaces'>,
): Promise<Refresh> {
  // A source's first attempt has no earlier version: a folder of thousands is ingested without asking.
  if (!job.replaces) return { live: undefined, options: {} };
  const sourceId = job.source.id;
  const live = await liveVersion(store.database, sourceId);
  const generation = live?.embedder === embedderId ? live.generation : null;
  return {
    live,
    options: {
      previous: live?.pages.length ? previousFetches(live.pages) : undefined,
      liveHash: generation === null ? undefined : live?.contentHash,
      reusable:
        generation === null
          ? undefined
          : async () => {
              const embedded = await store.chunks.vectors(sourceId, generation);
              return new Map(embedded.map((chunk) => [contextHash(chunk.searchText), chunk.vector]));
            },
    },
  };
}

/** What the source becomes once the attempt's chunks are stored, or once its unchanged content is confirmed. */
export function completionOf(
  source: SourceRecord,
  prepared: PreparedSource,
  refresh: Refresh,
  attempt: { generation: number; replaces: boolean; embedder: string },
): Completion {
  const unchanged = prepared.unchanged === true && refresh.live?.generation != null;
  return {
    sourceId: source.id,
    generation: attempt.generation,
    replaces: attempt.replaces,
    chunks: unchanged ? source.chunks : prepared.chunks.length,
    pages: unchanged ? source.pages : prepared.pages,
    characters: unchanged ? source.characters : prepared.characters,
    embedder: attempt.embedder,
    message: prepared.warnings.length ? `some pages were skipped: ${prepared.warnings.join('; ')}` : '',
    ...(unchanged ? { keeps: refresh.live!.generation! } : {}),
    ...(prepared.web
      ? { version: { contentHash: prepared.web.contentHash, pages: prepared.web.pages } }
      : {}),
  };
}

/** The figures of one attempt for the daemon's log: what was read again, embedded again, or kept. */
export function refreshFigures(prepared: PreparedSource): Record<string, number | boolean> {
  const chunks = prepared.chunks.length;
  return {
    unchanged: prepared.unchanged === true,
    chunks,
    chunks_embedded: prepared.embedded,
    chunks_reused: chunks - prepared.embedded,
    pages_embedded: prepared.embeddedPages,
    ...(prepared.web
      ? { web_pages: prepared.web.pages.length, pages_not_modified: prepared.web.notModified }
      : {}),
  };
}
