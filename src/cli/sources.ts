import type { Command } from 'commander';
import type { FileToAdd } from './file-paths.ts';
import { connect } from './options.ts';

export interface AddFlags {
  app: string;
  text?: string;
  file?: string[];
  url?: string;
  urls?: string[];
  website?: string;
  name?: string;
  wait?: boolean;
}

/** The files `--file` names, folders walked; a usage error (exit 2) before any request when they cannot be added. */
async function expandFiles(paths: string[], flags: AddFlags, command: Command): Promise<FileToAdd[]> {
  const { expandFilePaths } = await import('./file-paths.ts');
  const files = expandFilePaths(paths);
  if (!files.ok) command.error(`${files.error}`, { exitCode: 2 });
  if (files.value.length > 1 && flags.name !== undefined) {
    command.error(
      `--name names one source, but --file names ${files.value.length} files; each is named after its file (its path within a folder)`,
      { exitCode: 2 },
    );
  }
  return files.value;
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
      'local files or folders (uploaded first; folders are walked for supported files) or http(s) URLs of files',
    )
    .option('--url <url>', 'one web page')
    .option('--urls <urls...>', 'several web pages')
    .option('--website <url>', 'a same-site crawl starting at this URL')
    .option('--name <name>', 'source name (default: from the file, URL or text)')
    .option('--wait', 'show progress and wait until COMPLETED (exit 1 if FAILED)')
    .action(async (flags: AddFlags, command: Command) => {
      const given = (['text', 'file', 'url', 'urls', 'website'] as const).filter(
        (kind) => flags[kind] !== undefined,
      );
      if (given.length !== 1) {
        command.error('pass exactly one of --text, --file, --url, --urls, --website', { exitCode: 2 });
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
    .command('list')
    .description('List sources')
    .option('--app <id>', 'only this application')
    .action(async (flags: { app?: string }, command: Command) => {
      const { client, output } = await connect(command);
      const { printSources } = await import('./render.ts');
      printSources(output, await client.sources.list(flags.app ? { application_id: flags.app } : {}));
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
