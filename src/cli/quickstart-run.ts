import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Source } from '../api/index.ts';
import { ExitError } from './exit.ts';
import type { Session } from './session.ts';
import { waitForSources } from './wait.ts';

export const QUICKSTART_APPLICATION = 'ckb docs';
export const SAMPLE_QUESTION = 'How do I add a website as a source?';

/**
 * The project this CLI belongs to: the nearest folder above it with the launcher bin/ckb and a package.json
 * named ckb. The launcher tells it from dist/, which holds a copy of package.json (tsc emits the one
 * src/version.ts imports) but none of the documentation.
 */
function projectRoot(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(folder, 'package.json');
    const isProject =
      existsSync(join(folder, 'bin', 'ckb')) &&
      existsSync(manifest) &&
      JSON.parse(readFileSync(manifest, 'utf8')).name === 'ckb';
    if (isProject) return folder;
    const parent = dirname(folder);
    if (parent === folder)
      throw new ExitError('cannot find the ckb project folder (bin/ckb beside a package.json named "ckb")');
    folder = parent;
  }
}

export function documentationFiles(root: string): string[] {
  const readme = join(root, 'README.md');
  const docs = join(root, 'docs');
  const pages = existsSync(docs)
    ? readdirSync(docs)
        .filter((name) => name.endsWith('.md'))
        .sort()
        .map((name) => join(docs, name))
    : [];
  return [...(existsSync(readme) ? [readme] : []), ...pages];
}

async function findOrCreateApplication(session: Session) {
  const existing = (await session.client.applications.list()).find(
    (app) => app.name === QUICKSTART_APPLICATION,
  );
  if (existing) return existing;
  return session.client.applications.create({
    name: QUICKSTART_APPLICATION,
    description: "This project's README and documentation",
  });
}

/** Adds each documentation file not already a source (by name), so running quickstart again reuses the work. */
async function loadDocumentation(
  session: Session,
  applicationId: string,
  files: readonly string[],
): Promise<Source[]> {
  const { client, output } = session;
  const present = await client.applications.sources(applicationId);
  const usable = present.filter((source) => source.embed_status !== 'FAILED');
  const known = new Set(usable.map((source) => source.name));
  const added: Source[] = [];
  for (const path of files) {
    const name = basename(path);
    if (known.has(name)) continue;
    output.notice(`adding ${name}…`);
    const file = await client.files.upload(path);
    added.push(
      await client.sources.create({ application_id: applicationId, type: 'file', content: file.id, name }),
    );
  }
  const ids = [...usable.map((source) => source.id), ...added.map((source) => source.id)];
  return waitForSources(client, applicationId, ids, output, { reattach: `--app ${applicationId}` });
}

export async function quickstart(session: Session): Promise<void> {
  const { output } = session;
  const files = documentationFiles(projectRoot());
  if (files.length === 0) throw new ExitError('no README.md or docs/*.md found in the ckb project folder');
  const application = await findOrCreateApplication(session);
  output.notice(`application ${application.id} (${QUICKSTART_APPLICATION})`);
  const sources = await loadDocumentation(session, application.id, files);
  if (!sources.some((source) => source.embed_status === 'COMPLETED')) {
    throw new ExitError(
      `none of the documentation could be ingested; see \`ckb source list --app ${application.id}\``,
    );
  }
  if (process.stdin.isTTY && process.stdout.isTTY) {
    const { runChat } = await import('./chat-loop.ts');
    return runChat(session, { applicationId: application.id });
  }
  const { ask } = await import('./conversation-turn.ts');
  if (!output.json) output.line(output.colour.bold(`Q: ${SAMPLE_QUESTION}`));
  await ask(session, { application_id: application.id, message: SAMPLE_QUESTION, stream: true });
}
