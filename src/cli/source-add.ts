import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import type { SourceInput } from '../client/index.ts';
import { ExitError } from './exit.ts';
import { printSource } from './render.ts';
import type { Session } from './session.ts';
import type { AddFlags } from './sources.ts';
import { waitForSources } from './wait.ts';

const NAME_LENGTH = 60;

function isWebAddress(value: string): boolean {
  return /^https?:\/\//i.test(value);
}

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
  const file = flags.file ?? '';
  if (isWebAddress(file)) {
    return {
      application_id,
      type: 'file',
      content: file,
      name: flags.name ?? basename(new URL(file).pathname),
    };
  }
  session.output.notice(`uploading ${file}…`);
  const uploaded = await session.client.files.upload(file);
  return { application_id, type: 'file', content: uploaded.id, name: flags.name ?? uploaded.name };
}

export async function addSource(session: Session, flags: AddFlags): Promise<void> {
  const { client, output } = session;
  const created = await client.sources.create(await sourceBody(session, flags));
  if (!flags.wait) {
    output.printCreated(created);
    return;
  }
  if (!output.json) output.line(created.id);
  const [final = created] = await waitForSources(client, [created.id], output);
  if (output.json) printSource(output, final);
  if (final.embed_status === 'FAILED') {
    throw new ExitError(`source ${final.id} failed: ${final.embed_status_message || 'no reason given'}`);
  }
}
