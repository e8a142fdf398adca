import { type Command, InvalidArgumentError } from 'commander';
import type { EmbedStatus } from '../api/sources.ts';
import { parseInterval } from './duration.ts';
import type { FileToAdd } from './file-paths.ts';
import { connect, examples, globalOptions } from './options.ts';

export interface AddFlags {
  app: string;
  text?: string;
  file?: string[];
  url?: string;
  urls?: string[];
  website?: string;
  name?: string;
  wait?: boolean;
  /** Seconds between periodic syncs of a web source, or `off`. */
  syncInterval?: number | 'off';
}

/** `ckb source update`: new content (one kind at most), a new name or sync interval. */
export interface UpdateFlags {
  text?: string;
  file?: string;
  url?: string;
  urls?: string[];
  website?: string;
  name?: string;
  syncInterval?: number | 'off';
  wait?: boolean;
}

const INTERVAL_HELP =
  'url, urls and website sources: read again every DURATION (30m, 6h, 1d), by the daemon; off to stop';

// Written out rather than imported from the API's schemas, so registering commands loads no zod.
const STATUSES = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'] as const satisfies readonly EmbedStatus[];

/** The files `--file` names, folders walked; a usage error (exit 2) before any request when they cannot be added. */
async function expandFiles(paths: string[], flags: AddFlags, command: Command): Promise<FileToAdd[]> {
  const { expandFilePaths, skippedNotice } = await import('./file-paths.ts');
  const files = expandFilePaths(paths);
  if (!files.ok) command.error(files.error, { exitCode: 2 });
  if (files.value.length > 1 && flags.name !== undefined) {
    command.error(
      `--name names one source, but --file names ${files.value.length} files; each is named after its file (its path within a folder)`,
      { exitCode: 2 },
    );
  }
  const skipped = skippedNotice(files.skipped);
  if (skipped !== undefined && globalOptions(command).quiet !== true) process.stderr.write(`${skipped}\n`);
  return files.value;
}

function parseStatus(value: string): EmbedStatus {
  const status = value.toUpperCase();
  const known = STATUSES.find((candidate) => candidate === status);
  if (known === undefined) throw new InvalidArgumentError(`use one of ${STATUSES.join(', ')}`);
  return known;
}

function parseLimit(value: string): number {
  if (!/^(?:[1-9][0-9]{0,2}|1000)$/.test(value))
    throw new InvalidArgumentError('use a whole number from 1 to 1000');
  return Number(value);
}

export function registerSources(program: Command): void {
  const sources = program
    .command('source')
    .description('Add and inspect the sources an application answers from');

  sources
    .command('add')
    .description('Add a source (exactly one of --text, --file, --url, --urls, --website); prints its id')
    .requiredOption('--app <id>', 'application id')
    .option('--text <text>', 'the text itself')
    .option(
      '--file <paths...>',
      'local files or folders (uploaded first; folders are walked for supported files), ids of uploaded files (file_…) or http(s) URLs of files',
    )
    .option('--url <url>', 'one web page')
    .option('--urls <urls...>', 'several web pages')
    .option('--website <url>', 'a same-site crawl starting at this URL')
    .option('--name <name>', 'source name (default: from the file, URL or text)')
    .option('--sync-interval <duration>', INTERVAL_HELP, parseInterval)
    .option('--wait', 'show progress and wait until COMPLETED (exit 1 if FAILED)')
    .addHelpText(
      'after',
      examples(
        'ckb source add --app $APP --file ./docs/ --wait',
        'ckb source add --app $APP --website https://docs.example.com/ --sync-interval 1d',
        'ckb source add --app $APP --url https://example.com/page',
        'ckb source add --app $APP --website https://docs.example.com/ --wait',
        'ckb source add --app $APP --file $(ckb file upload report.pdf)',
        'ckb source add --app $APP --text "Opening hours: 9 to 5" --name hours',
      ),
    )
    .action(async (flags: AddFlags, command: Command) => {
      const given = (['text', 'file', 'url', 'urls', 'website'] as const).filter(
        (kind) => flags[kind] !== undefined,
      );
      if (given.length !== 1) {
        command.error('pass exactly one of --text, --file, --url, --urls, --website', { exitCode: 2 });
      }
      if (typeof flags.syncInterval === 'number' && !['url', 'urls', 'website'].includes(given[0]!)) {
        command.error(
          '--sync-interval is for --url, --urls and --website sources (web pages change by themselves)',
          {
            exitCode: 2,
          },
        );
      }
      const files = flags.file === undefined ? [] : await expandFiles(flags.file, flags, command);
      const { addFileSources, addSource } = await import('./source-add.ts');
      const session = await connect(command);
      const [only] = files;
      const name = flags.name ?? only?.name;
      if (files.length > 1) await addFileSources(session, flags, files);
      else if (only) await addSource(session, { ...flags, file: [only.path], ...(name ? { name } : {}) });
      else await addSource(session, flags);
    });

  sources
    .command('update')
    .description(
      'Change a source in place (same id): new content (at most one of --text, --file, --url, --urls, --website), a new name or sync interval; its chunks stay searchable until the new ones replace them',
    )
    .argument('<id>', 'source id')
    .option('--text <text>', 'the new text (text sources)')
    .option(
      '--file <path>',
      'the new file (file sources): a local file (uploaded first; the one it replaces is deleted), an uploaded file id (file_…) or an http(s) URL',
    )
    .option('--url <url>', 'the new page (url sources)')
    .option('--urls <urls...>', 'the new pages (urls sources)')
    .option('--website <url>', 'the new start page (website sources)')
    .option('--name <name>', 'new name')
    .option('--sync-interval <duration>', INTERVAL_HELP, parseInterval)
    .option('--wait', 'show progress and wait until the new content is COMPLETED (exit 1 if FAILED)')
    .addHelpText(
      'after',
      examples(
        'ckb source update $SRC --file ./handbook.pdf --wait',
        'ckb source update $SRC --text "Opening hours: 9 to 6"',
        'ckb source update $SRC --sync-interval 6h',
      ),
    )
    .action(async (id: string, flags: UpdateFlags, command: Command) => {
      const contents = (['text', 'file', 'url', 'urls', 'website'] as const).filter(
        (kind) => flags[kind] !== undefined,
      );
      if (contents.length > 1)
        command.error('pass at most one of --text, --file, --url, --urls, --website', { exitCode: 2 });
      if (contents.length === 0 && flags.name === undefined && flags.syncInterval === undefined) {
        command.error(
          'nothing to update: pass new content (--text, --file, --url, --urls, --website), --name or --sync-interval',
          { exitCode: 2 },
        );
      }
      const { missingLocalFile } = await import('./source-add.ts');
      if (missingLocalFile(flags.file)) command.error(`no such file: ${flags.file}`, { exitCode: 2 });
      const { updateSource } = await import('./source-update.ts');
      await updateSource(await connect(command), id, flags);
    });

  sources
    .command('sync')
    .description(
      "Read url, urls and website sources again (pages their servers say are unchanged are not read or embedded again): the sources given, or all of an application's",
    )
    .argument('[ids...]', 'source ids')
    .option('--app <id>', 'every url, urls and website source of this application')
    .option('--wait', 'wait until they are done and say which changed (exit 1 if one FAILED)')
    .addHelpText('after', examples('ckb source sync $SRC --wait', 'ckb source sync --app $APP'))
    .action(async (ids: string[], flags: { app?: string; wait?: boolean }, command: Command) => {
      if ((ids.length === 0) === (flags.app === undefined)) {
        command.error("name the sources to sync, or pass --app for all of an application's web sources", {
          exitCode: 2,
        });
      }
      const { syncSources } = await import('./source-update.ts');
      await syncSources(await connect(command), ids, flags);
    });

  sources
    .command('wait')
    .description(
      "Follow ingestion until it ends (again, after Ctrl-C left --wait): the sources given, or all of an application's",
    )
    .argument('[ids...]', 'source ids')
    .option('--app <id>', 'every source of this application')
    .addHelpText(
      'after',
      '\nExamples:\n  $ ckb source wait --app $APP\n  $ ckb source wait src_01J… src_01K…',
    )
    .action(async (ids: string[], flags: { app?: string }, command: Command) => {
      if (ids.length === 0 && flags.app === undefined) {
        command.error('name the sources to wait for, or pass --app for all of an application', {
          exitCode: 2,
        });
      }
      const { client, output } = await connect(command);
      const { waitForSources } = await import('./wait.ts');
      const { failIfAnyFailed } = await import('./source-add.ts');
      const { app } = flags;
      const waited =
        ids.length > 0 ? ids : (await client.applications.sources(app ?? '')).map((source) => source.id);
      if (waited.length === 0) {
        output.notice(`${app} has no sources`);
        if (output.json) output.printJson([]);
        return;
      }
      const reattach = ids.length > 0 ? ids.join(' ') : `--app ${app}`;
      const final = await waitForSources(client, app, waited, output, { reattach });
      if (output.json) output.printJson(final);
      failIfAnyFailed(final);
    });

  sources
    .command('list')
    .description('List sources, newest first')
    .option('--app <id>', 'only this application')
    .option('--status <status>', `only those in this state: ${STATUSES.join(', ')}`, parseStatus)
    .option('--limit <n>', 'at most this many (1-1000)', parseLimit)
    .addHelpText(
      'after',
      '\nExamples:\n  $ ckb source list --app $APP --status FAILED\n  $ ckb source list --limit 20',
    )
    .action(async (flags: { app?: string; status?: EmbedStatus; limit?: number }, command: Command) => {
      const { client, output } = await connect(command);
      const { printSources } = await import('./render.ts');
      printSources(
        output,
        await client.sources.list({
          ...(flags.app ? { application_id: flags.app } : {}),
          ...(flags.status ? { status: flags.status } : {}),
          ...(flags.limit ? { limit: flags.limit } : {}),
        }),
      );
    });

  sources
    .command('get')
    .description('Show a source and its ingestion status')
    .argument('<id>', 'source id')
    .action(async (id: string, _flags: object, command: Command) => {
      const { client, output } = await connect(command);
      const { printSource } = await import('./render.ts');
      printSource(output, await client.sources.get(id));
    });

  sources
    .command('rm')
    .description('Delete a source and its chunks')
    .argument('<id>', 'source id')
    .action(async (id: string, _flags: object, command: Command) => {
      const { client, output } = await connect(command);
      const { printDeleted } = await import('./render.ts');
      printDeleted(output, await client.sources.delete(id));
    });

  sources
    .command('chunks')
    .description('Show what was extracted and stored, in order')
    .argument('<id>', 'source id')
    .action(async (id: string, _flags: object, command: Command) => {
      const { client, output } = await connect(command);
      const chunks = await client.sources.chunks(id);
      if (output.json) {
        output.printJson(chunks);
        return;
      }
      for (const chunk of chunks) {
        const where = chunk.url ? ` ${chunk.url}` : '';
        output.line(output.colour.bold(`#${chunk.index} page ${chunk.page}${where}`));
        output.line(chunk.text);
        output.line();
      }
    });
}
