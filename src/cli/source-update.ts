import { basename } from 'node:path';
import type { Source } from '../api/index.ts';
import { ConflictError, NotFoundError, type SourceUpdate } from '../client/index.ts';
import { formatInterval } from './duration.ts';
import { ExitError } from './exit.ts';
import { isUploadedFileId, isWebAddress } from './file-paths.ts';
import { count, plural } from './output.ts';
import { printSource } from './render.ts';
import type { Session } from './session.ts';
import { failIfAnyFailed } from './source-add.ts';
import type { UpdateFlags } from './sources.ts';
import { waitForSources } from './wait.ts';

const FILE_ID = /^file_[0-9A-Z]{26}$/;

/** Deletes an uploaded file no source uses any more; one still used (409) or gone (404) is left alone. */
export async function deleteUnusedFile(session: Session, fileId: string): Promise<void> {
  try {
    await session.client.files.delete(fileId);
  } catch (error) {
    if (!(error instanceof NotFoundError || error instanceof ConflictError)) throw error;
  }
}

/**
 * Uploads a local file and makes it a file source's new content (same id); the file it replaces is deleted
 * when no other source uses it, so an edited file does not leave its old copies behind.
 */
export async function replaceFile(
  session: Session,
  sourceId: string,
  path: string,
  extra: SourceUpdate = {},
): Promise<Source> {
  const { client } = session;
  const before = await client.sources.get(sourceId);
  const file = await client.files.upload(path, { name: basename(path) });
  const updated = await client.sources.update(sourceId, { ...extra, content: file.id });
  const previous = before.content;
  if (typeof previous === 'string' && FILE_ID.test(previous) && previous !== file.id)
    await deleteUnusedFile(session, previous);
  return updated;
}

function contentOf(flags: UpdateFlags): SourceUpdate {
  if (flags.text !== undefined) return { content: flags.text };
  if (flags.url !== undefined) return { content: flags.url };
  if (flags.urls !== undefined) return { content: flags.urls };
  if (flags.website !== undefined) return { content: flags.website };
  return {};
}

/** `ckb source update`: one PUT (a local file is uploaded first); `--wait` follows the new content's ingestion. */
export async function updateSource(session: Session, id: string, flags: UpdateFlags): Promise<void> {
  const { client, output } = session;
  const changes: SourceUpdate = {
    ...contentOf(flags),
    ...(flags.name === undefined ? {} : { name: flags.name }),
    ...(flags.syncInterval === undefined
      ? {}
      : { sync_interval: flags.syncInterval === 'off' ? null : flags.syncInterval }),
  };
  let updated: Source;
  if (flags.file !== undefined && !isUploadedFileId(flags.file) && !isWebAddress(flags.file)) {
    output.notice(`uploading ${flags.file}…`);
    updated = await replaceFile(session, id, flags.file, changes);
  } else {
    updated = await client.sources.update(
      id,
      flags.file === undefined ? changes : { ...changes, content: flags.file },
    );
  }
  if (!flags.wait || updated.embed_status === 'COMPLETED') {
    if (updated.embed_status === 'COMPLETED' && changes.content !== undefined)
      output.notice(`${updated.name}: the content is unchanged; nothing to ingest`);
    printSource(output, updated);
    return;
  }
  const [final = updated] = await waitForSources(client, undefined, [id], output, { reattach: id });
  printSource(output, final);
  if (final.embed_status === 'FAILED') {
    throw new ExitError(`source ${id} failed: ${final.embed_status_message || 'no reason given'}`);
  }
}

const WEB_TYPES = new Set(['url', 'urls', 'website']);

/** What a sync did to a source, said in a few words. */
function outcome(before: Source, after: Source): string {
  if (after.embed_status === 'FAILED') return `failed: ${after.embed_status_message}`;
  const every = after.sync_interval === null ? '' : `; next in ${formatInterval(after.sync_interval)}`;
  if (after.content_hash === before.content_hash) return `unchanged (${plural(after.pages, 'page')})${every}`;
  return `updated: ${plural(after.pages, 'page')}, ${plural(after.chunks, 'chunk')}${every}`;
}

/** `ckb source sync`: asks the daemon to read each web source again; `--wait` says which changed. */
export async function syncSources(
  session: Session,
  ids: string[],
  flags: { app?: string; wait?: boolean },
): Promise<void> {
  const { client, output } = session;
  let targets = ids;
  if (flags.app !== undefined) {
    const listed = await client.applications.sources(flags.app);
    targets = listed.filter((source) => WEB_TYPES.has(source.type)).map((source) => source.id);
    if (targets.length === 0) {
      output.notice(`${flags.app} has no url, urls or website sources to sync`);
      if (output.json) output.printJson([]);
      return;
    }
  }
  const before: Source[] = [];
  for (const id of targets) before.push(await client.sources.sync(id));
  if (!flags.wait) {
    if (output.json) output.printJson(before);
    else for (const source of before) output.line(source.id);
    return;
  }
  const reattach = ids.length > 0 ? ids.join(' ') : `--app ${flags.app}`;
  const final = await waitForSources(client, flags.app, targets, output, { reattach });
  if (output.json) output.printJson(final);
  else
    final.forEach((source, index) => {
      output.line(`${source.id}  ${source.name}: ${outcome(before[index]!, source)}`);
    });
  if (final.length > 1) output.notice(`${count(final.length)} sources synced`);
  failIfAnyFailed(final);
}
