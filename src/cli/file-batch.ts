import PQueue from 'p-queue';
import { SOURCE_BATCH_MAX, type Source } from '../api/index.ts';
import type { SourceInput } from '../client/index.ts';
import { describe } from './failure.ts';
import { type FileToAdd, isRemote, isUploadedFileId, isWebAddress, nameFromFileUrl } from './file-paths.ts';
import { count, plural } from './output.ts';
import type { Session } from './session.ts';
import { startSpinner } from './spinner.ts';

/** Enough uploads in flight to hide each one's latency, few enough to leave the daemon time to ingest. */
const CONCURRENT_UPLOADS = 8;

/** The sources created, in the order of the files, and, when it stopped early, why (naming the file). */
export type FileBatch = { ok: true; created: Source[] } | { ok: false; created: Source[]; error: string };

type Prepared = { ok: true; body: SourceInput } | { ok: false };

function groupsOf<Item>(items: readonly Item[], size: number): Item[][] {
  const groups: Item[][] = [];
  for (let start = 0; start < items.length; start += size) groups.push(items.slice(start, start + size));
  return groups;
}

/**
 * Uploads the local files (URLs need none) a few at a time and creates their sources in groups of up to
 * SOURCE_BATCH_MAX, each group as soon as its uploads are done, so ingestion starts while later files upload.
 * The first failure stops everything not yet started; the groups already created stay.
 */
export async function createFileSources(
  session: Session,
  applicationId: string,
  files: readonly FileToAdd[],
  uploadedNames: ReadonlyMap<string, string>,
  onCreated: (sources: readonly Source[]) => void,
): Promise<FileBatch> {
  const { client, output } = session;
  const stop = new AbortController();
  const total = files.filter((file) => !isRemote(file.path)).length;
  let uploaded = 0;
  const created: Source[] = [];
  let error: string | undefined;

  const progress = () =>
    `uploading ${count(uploaded)}/${plural(total, 'file')}, ${plural(created.length, 'source')} created`;
  const spinner = startSpinner(output, `${progress()}…`);

  const prepare = async ({ path, name }: FileToAdd): Promise<SourceInput> => {
    if (isUploadedFileId(path)) {
      return {
        application_id: applicationId,
        type: 'file',
        content: path,
        name: name ?? uploadedNames.get(path) ?? path,
      };
    }
    if (isWebAddress(path)) {
      return {
        application_id: applicationId,
        type: 'file',
        content: path,
        name: name ?? nameFromFileUrl(path),
      };
    }
    const file = await client.files.upload(path, { signal: stop.signal });
    uploaded += 1;
    spinner.text = `${progress()}…`;
    return { application_id: applicationId, type: 'file', content: file.id, name: name ?? file.name };
  };

  const uploads = new PQueue({ concurrency: CONCURRENT_UPLOADS });
  const prepared = files.map((file) =>
    uploads.add(async (): Promise<Prepared> => {
      if (stop.signal.aborted) return { ok: false };
      try {
        return { ok: true, body: await prepare(file) };
      } catch (cause) {
        // Only the first failure is the reason; the uploads it cancels fail too, with nothing new to say.
        if (!stop.signal.aborted) {
          error = `could not upload ${file.path}: ${describe(cause)}`;
          stop.abort();
        }
        return { ok: false };
      }
    }),
  );

  for (const group of groupsOf(prepared, SOURCE_BATCH_MAX)) {
    const bodies = (await Promise.all(group)).flatMap((outcome) => (outcome.ok ? [outcome.body] : []));
    if (bodies.length < group.length) break;
    try {
      const sources = await client.sources.createMany(bodies);
      created.push(...sources);
      spinner.text = `${progress()}…`;
      onCreated(sources);
    } catch (cause) {
      error ??= `could not create the sources of ${plural(bodies.length, 'uploaded file')}: ${describe(cause)}`;
      stop.abort();
      break;
    }
  }

  if (error === undefined) {
    spinner.succeed(`uploaded ${plural(total, 'file')}, ${plural(created.length, 'source')} created`);
    return { ok: true, created };
  }
  spinner.fail(progress());
  return { ok: false, created, error };
}
