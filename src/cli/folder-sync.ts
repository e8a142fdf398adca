import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Command } from 'commander';
import PQueue from 'p-queue';
import type { Source } from '../api/index.ts';
import { ExitError } from './exit.ts';
import { createFileSources } from './file-batch.ts';
import { expandFilePaths, isRemote, namesUnder, skippedNotice, sourceNameOf } from './file-paths.ts';
import { globalOptions } from './options.ts';
import { count, plural } from './output.ts';
import type { Session } from './session.ts';
import { failIfAnyFailed } from './source-add.ts';
import { deleteUnusedFile, replaceFile } from './source-update.ts';
import type { SyncFlags } from './sync.ts';
import { waitForSources } from './wait.ts';

/** A local file and the name its source has. */
export interface LocalFile {
  path: string;
  name: string;
}

/** What a sync finds: files to add, sources to replace, to leave alone, and sources whose file is gone. */
export interface SyncPlan {
  added: LocalFile[];
  updated: { file: LocalFile; source: Source }[];
  unchanged: Source[];
  /** Sources of files that are no longer there (and older sources of the same name as a newer one). */
  gone: Source[];
}

/** What a sync did, as source objects (what --json prints). */
export interface SyncResult {
  added: Source[];
  updated: Source[];
  unchanged: Source[];
  removed: Source[];
}

/** Reading and hashing files in parallel hides each one's latency; more would only compete for the disk. */
const CONCURRENT_FILES = 8;

/** The local files under the paths, named as `source add --file` names them; a usage error (exit 2) otherwise. */
export function expandForSync(paths: string[], command: Command): LocalFile[] {
  const remote = paths.find(isRemote);
  if (remote !== undefined)
    command.error(`ckb sync takes local files and folders, not ${remote}`, { exitCode: 2 });
  const files = expandFilePaths(paths);
  if (!files.ok) command.error(files.error, { exitCode: 2 });
  const skipped = skippedNotice(files.skipped);
  if (skipped !== undefined && globalOptions(command).quiet !== true) process.stderr.write(`${skipped}\n`);
  return files.value.map((file) => ({ path: file.path, name: sourceNameOf(file) }));
}

/** SHA-256 of files by path, kept while their size and modification time stay the same (for `ckb watch`). */
export type HashCache = Map<string, { size: number; modified: number; hash: string }>;

async function hashFile(path: string, cache: HashCache): Promise<string> {
  const { size, mtimeMs } = await stat(path);
  const known = cache.get(path);
  if (known && known.size === size && known.modified === mtimeMs) return known.hash;
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  const digest = hash.digest('hex');
  cache.set(path, { size, modified: mtimeMs, hash: digest });
  return digest;
}

/** Compares the files with the application's file sources, by name and content hash. Changes nothing. */
export async function planSync(
  session: Session,
  applicationId: string,
  paths: readonly string[],
  files: readonly LocalFile[],
  cache: HashCache = new Map(),
): Promise<SyncPlan> {
  const listed = await session.client.applications.sources(applicationId);
  const inScope = namesUnder(paths);
  // Newest first: when a name has several sources (added twice before sync existed), the newest is the file's.
  const byName = new Map<string, Source>();
  const duplicates: Source[] = [];
  for (const source of listed) {
    if (source.type !== 'file') continue;
    if (byName.has(source.name)) duplicates.push(source);
    else byName.set(source.name, source);
  }
  const queue = new PQueue({ concurrency: CONCURRENT_FILES });
  const hashes = await Promise.all(files.map((file) => queue.add(() => hashFile(file.path, cache))));
  const plan: SyncPlan = { added: [], updated: [], unchanged: [], gone: [] };
  const names = new Set<string>();
  files.forEach((file, index) => {
    names.add(file.name);
    const source = byName.get(file.name);
    if (source === undefined) plan.added.push(file);
    else if (source.content_hash === hashes[index]) plan.unchanged.push(source);
    else plan.updated.push({ file, source });
  });
  for (const source of [...byName.values(), ...duplicates])
    if (inScope(source.name) && (!names.has(source.name) || duplicates.includes(source)))
      plan.gone.push(source);
  return plan;
}

/** Carries out a plan: uploads what is new or changed, replaces in place, and removes when asked to. */
export async function applySync(
  session: Session,
  applicationId: string,
  plan: SyncPlan,
  options: { delete?: boolean | undefined },
): Promise<SyncResult> {
  const { client } = session;
  const result: SyncResult = { added: [], updated: [], unchanged: plan.unchanged, removed: [] };
  if (plan.added.length > 0) {
    const batch = await createFileSources(session, applicationId, plan.added, new Map(), () => {});
    result.added = batch.created;
    if (!batch.ok) throw new ExitError(`${batch.error}; ${describeDone(result)}`);
  }
  const queue = new PQueue({ concurrency: CONCURRENT_FILES });
  await Promise.all(
    plan.updated.map(({ file, source }) =>
      queue.add(async () => {
        try {
          result.updated.push(await replaceFile(session, source.id, file.path));
        } catch (error) {
          queue.clear();
          throw error;
        }
      }),
    ),
  );
  if (options.delete) {
    await Promise.all(
      plan.gone.map((source) =>
        queue.add(async () => {
          const { content } = await client.sources.get(source.id);
          await client.sources.delete(source.id);
          result.removed.push(source);
          if (typeof content === 'string' && content.startsWith('file_'))
            await deleteUnusedFile(session, content);
        }),
      ),
    );
  }
  return result;
}

function describeDone(result: SyncResult): string {
  return `added ${count(result.added.length)}, updated ${count(result.updated.length)}, removed ${count(result.removed.length)} before it stopped`;
}

/** `added 3, updated 1, unchanged 2,607, removed 0`: what a sync did, or would do. */
export function summary(counts: {
  added: number;
  updated: number;
  unchanged: number;
  removed: number;
}): string {
  return `added ${count(counts.added)}, updated ${count(counts.updated)}, unchanged ${count(counts.unchanged)}, removed ${count(counts.removed)}`;
}

/** `ckb sync`: plans, says what changes, applies it (unless --dry-run), and waits when asked. */
export async function syncFolder(
  session: Session,
  paths: string[],
  files: LocalFile[],
  flags: SyncFlags,
): Promise<void> {
  const { client, output } = session;
  const plan = await planSync(session, flags.app, paths, files);
  const goneNames = plan.gone.map((source) => source.name);
  if (!flags.delete && plan.gone.length > 0) {
    output.notice(
      `${plural(plan.gone.length, 'source has', 'sources have')} no file here any more, and stay${plan.gone.length === 1 ? 's' : ''} (pass --delete to remove ${plan.gone.length === 1 ? 'it' : 'them'}): ${goneNames.slice(0, 5).join(', ')}${plan.gone.length > 5 ? ', …' : ''}`,
    );
  }
  const failedBefore = plan.unchanged.filter((source) => source.embed_status === 'FAILED');
  if (failedBefore.length > 0)
    output.notice(
      `${plural(failedBefore.length, 'unchanged file', 'unchanged files')} FAILED before: \`ckb source list --app ${flags.app} --status FAILED\` says why`,
    );
  if (flags.dryRun) {
    printDryRun(session, plan, flags);
    return;
  }
  const result = await applySync(session, flags.app, plan, flags);
  let { added, updated } = result;
  const waited = [...added, ...updated].filter((source) => source.embed_status !== 'COMPLETED');
  if (flags.wait && waited.length > 0) {
    const final = new Map(
      (
        await waitForSources(
          client,
          flags.app,
          waited.map((source) => source.id),
          output,
          { reattach: `--app ${flags.app}` },
        )
      ).map((source) => [source.id, source]),
    );
    added = added.map((source) => final.get(source.id) ?? source);
    updated = updated.map((source) => final.get(source.id) ?? source);
  }
  if (output.json) {
    output.printJson({ added, updated, unchanged: result.unchanged, removed: result.removed });
  } else {
    for (const [verb, sources] of [
      ['added', added],
      ['updated', updated],
      ['removed', result.removed],
    ] as const)
      for (const source of sources) output.line(`${verb.padEnd(8)} ${source.name}  ${source.id}`);
    output.line(
      summary({
        added: added.length,
        updated: updated.length,
        unchanged: result.unchanged.length,
        removed: result.removed.length,
      }),
    );
  }
  if (flags.wait) failIfAnyFailed([...added, ...updated]);
}

function printDryRun(session: Session, plan: SyncPlan, flags: SyncFlags): void {
  const { output } = session;
  const removed = flags.delete ? plan.gone : [];
  if (output.json) {
    output.printJson({
      added: plan.added.map((file) => ({ name: file.name, path: file.path })),
      updated: plan.updated.map(({ source }) => source),
      unchanged: plan.unchanged,
      removed,
    });
    return;
  }
  for (const file of plan.added) output.line(`would add    ${file.name}`);
  for (const { source } of plan.updated) output.line(`would update ${source.name}  ${source.id}`);
  for (const source of removed) output.line(`would remove ${source.name}  ${source.id}`);
  output.line(
    `dry run: ${summary({
      added: plan.added.length,
      updated: plan.updated.length,
      unchanged: plan.unchanged.length,
      removed: removed.length,
    })}; nothing was changed`,
  );
}
