import { existsSync } from 'node:fs';
import type { Source } from '../api/index.ts';
import type { SourceInput } from '../client/index.ts';
import { ExitError } from './exit.ts';
import { createFileSources } from './file-batch.ts';
import { type FileToAdd, isUploadedFileId, isWebAddress, nameFromFileUrl } from './file-paths.ts';
import { count, plural } from './output.ts';
import { printSource } from './render.ts';
import type { Session } from './session.ts';
import type { AddFlags } from './sources.ts';
import { waitForSources } from './wait.ts';

const NAME_LENGTH = 60;

/** A readable default: the page's host and path, without the scheme. */
function nameFromUrl(url: string): string {
  const { host, pathname } = new URL(url);
  return `${host}${pathname === '/' ? '' : pathname}`.slice(0, NAME_LENGTH * 3);
}

function nameFromText(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= NAME_LENGTH ? flat : `${flat.slice(0, NAME_LENGTH - 1)}…`;
}

/** Checked before any request, so a typo is a usage error rather than a half-done upload. */
export function missingLocalFile(file: string | undefined): boolean {
  return file !== undefined && !isWebAddress(file) && !existsSync(file);
}

/**
 * The names of files uploaded earlier (`ckb file upload` printed their ids), to name their sources after them;
 * an id that is not among this account's files stops everything before any source is added.
 */
export async function uploadedFileNames(
  session: Session,
  files: readonly FileToAdd[],
): Promise<Map<string, string>> {
  const ids = files.map((file) => file.path).filter(isUploadedFileId);
  if (ids.length === 0) return new Map();
  const names = new Map((await session.client.files.list()).map((file) => [file.id, file.name]));
  const unknown = ids.find((id) => !names.has(id));
  if (unknown !== undefined) {
    throw new ExitError(
      `no uploaded file ${unknown}: \`ckb file list\` shows the files uploaded with this key`,
    );
  }
  return names;
}

async function sourceBody(session: Session, flags: AddFlags): Promise<SourceInput> {
  const application_id = flags.app;
  if (flags.text !== undefined) {
    return {
      application_id,
      type: 'text',
      content: flags.text,
      name: flags.name ?? nameFromText(flags.text),
    };
  }
  const interval = typeof flags.syncInterval === 'number' ? { sync_interval: flags.syncInterval } : {};
  if (flags.url !== undefined) {
    const name = flags.name ?? nameFromUrl(flags.url);
    return { application_id, type: 'url', content: flags.url, name, ...interval };
  }
  if (flags.urls !== undefined) {
    const [first = ''] = flags.urls;
    const more = flags.urls.length > 1 ? ` and ${flags.urls.length - 1} more` : '';
    return {
      application_id,
      type: 'urls',
      content: flags.urls,
      name: flags.name ?? `${nameFromUrl(first)}${more}`,
      ...interval,
    };
  }
  if (flags.website !== undefined) {
    return {
      application_id,
      type: 'website',
      content: flags.website,
      name: flags.name ?? new URL(flags.website).host,
      ...interval,
    };
  }
  const [file = ''] = flags.file ?? [];
  if (isUploadedFileId(file)) {
    const name = flags.name ?? (await uploadedFileNames(session, [{ path: file }])).get(file) ?? file;
    return { application_id, type: 'file', content: file, name };
  }
  if (isWebAddress(file)) {
    return { application_id, type: 'file', content: file, name: flags.name ?? nameFromFileUrl(file) };
  }
  session.output.notice(`uploading ${file}…`);
  const uploaded = await session.client.files.upload(file);
  return { application_id, type: 'file', content: uploaded.id, name: flags.name ?? uploaded.name };
}

/** One source, with `--file` naming a single file: one POST /sources. */
export async function addSource(session: Session, flags: AddFlags): Promise<void> {
  const { client, output } = session;
  const created = await client.sources.create(await sourceBody(session, flags));
  if (!flags.wait) {
    output.printCreated(created);
    return;
  }
  if (!output.json) output.line(created.id);
  const [final = created] = await waitForSources(client, flags.app, [created.id], output, {
    reattach: created.id,
  });
  if (output.json) printSource(output, final);
  if (final.embed_status === 'FAILED') {
    throw new ExitError(`source ${final.id} failed: ${final.embed_status_message || 'no reason given'}`);
  }
}

/** The daemon's reasons usually begin with the file's name already; it is not repeated then. */
function failureLine(source: Source): string {
  const reason = source.embed_status_message || 'no reason given';
  return reason.startsWith(source.name) ? reason : `${source.name}: ${reason}`;
}

function failureList(failed: readonly Source[], total: number): string {
  const lines = failed.map((source) => `  ${failureLine(source)}`);
  return [`${count(failed.length)} of ${plural(total, 'source')} failed:`, ...lines].join('\n');
}

/** Several files: uploaded a few at a time, their sources created in groups; ids are printed as they are created. */
export async function addFileSources(
  session: Session,
  flags: AddFlags,
  files: readonly FileToAdd[],
): Promise<void> {
  const { client, output } = session;
  // Scripts read the ids from a pipe; a person at a terminal watching --wait's progress needs no screenful of them.
  const printsIds = !output.json && !(flags.wait && process.stdout.isTTY);
  const printIds = (sources: readonly Source[]) => {
    if (printsIds) for (const source of sources) output.line(source.id);
  };
  const names = await uploadedFileNames(session, files);
  const batch = await createFileSources(session, flags.app, files, names, printIds);
  if (!batch.ok) {
    if (output.json) output.printJson(batch.created);
    const where = batch.created.length > 0 && printsIds ? ' (ids above)' : '';
    throw new ExitError(
      `${batch.error}; ${plural(batch.created.length, 'source was', 'sources were')} already created${where}`,
    );
  }
  if (!flags.wait) {
    if (output.json) output.printJson(batch.created);
    return;
  }
  const ids = batch.created.map((source) => source.id);
  const final = await waitForSources(client, flags.app, ids, output, { reattach: `--app ${flags.app}` });
  if (output.json) output.printJson(final);
  else if (!printsIds) output.notice(`\`ckb source list --app ${flags.app}\` lists them`);
  failIfAnyFailed(final);
}

/** Exit 1 naming each failed source, as `--wait` and `source wait` end. */
export function failIfAnyFailed(final: readonly Source[]): void {
  const failed = final.filter((source) => source.embed_status === 'FAILED');
  if (failed.length > 0) throw new ExitError(failureList(failed, final.length));
}
