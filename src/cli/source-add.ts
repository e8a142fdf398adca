import { existsSync } from 'node:fs';
import type { Source } from '../api/index.ts';
import type { SourceInput } from '../client/index.ts';
import { ExitError } from './exit.ts';
import { createFileSources } from './file-batch.ts';
import { type FileToAdd, isWebAddress, nameFromFileUrl } from './file-paths.ts';
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
  if (flags.url !== undefined) {
    return { application_id, type: 'url', content: flags.url, name: flags.name ?? nameFromUrl(flags.url) };
  }
  if (flags.urls !== undefined) {
    const [first = ''] = flags.urls;
    const more = flags.urls.length > 1 ? ` and ${flags.urls.length - 1} more` : '';
    return {
      application_id,
      type: 'urls',
      content: flags.urls,
      name: flags.name ?? `${nameFromUrl(first)}${more}`,
    };
  }
  if (flags.website !== undefined) {
    return {
      application_id,
      type: 'website',
      content: flags.website,
      name: flags.name ?? new URL(flags.website).host,
    };
  }
  const [file = ''] = flags.file ?? [];
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
  const [final = created] = await waitForSources(client, flags.app, [created.id], output);
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
  const printIds = (sources: readonly Source[]) => {
    if (!output.json) for (const source of sources) output.line(source.id);
  };
  const batch = await createFileSources(session, flags.app, files, printIds);
  if (!batch.ok) {
    if (output.json) output.printJson(batch.created);
    const where = batch.created.length > 0 && !output.json ? ' (ids above)' : '';
    throw new ExitError(
      `${batch.error}; ${plural(batch.created.length, 'source was', 'sources were')} already created${where}`,
    );
  }
  if (!flags.wait) {
    if (output.json) output.printJson(batch.created);
    return;
  }
  const ids = batch.created.map((source) => source.id);
  const final = await waitForSources(client, flags.app, ids, output);
  if (output.json) output.printJson(final);
  const failed = final.filter((source) => source.embed_status === 'FAILED');
  if (failed.length > 0) throw new ExitError(failureList(failed, final.length));
}
