import type { Command } from 'commander';
import { connect, examples } from './options.ts';

export interface SyncFlags {
  app: string;
  delete?: boolean;
  dryRun?: boolean;
  wait?: boolean;
}

export function registerSync(program: Command): void {
  program
    .command('sync')
    .description(
      "Make an application's file sources equal to the files under PATH: new files added, changed ones replaced in place (same source id), unchanged ones left alone, and, with --delete, sources of files that are gone removed",
    )
    .requiredOption('--app <id>', 'application id')
    .argument('<paths...>', 'files and folders (folders are walked as `source add --file` walks them)')
    .option(
      '--delete',
      'also remove the sources of files no longer there (within the folders and files given)',
    )
    .option('--dry-run', 'say what would change, and change nothing')
    .option('--wait', 'wait until what was added or updated is searchable (exit 1 if one FAILED)')
    .addHelpText(
      'after',
      `${examples(
        'ckb sync --app $APP ./docs/ --wait',
        'ckb sync --app $APP ./docs/ --delete --dry-run',
        "ckb sync --app $APP ./docs/ --json | jq '.updated[].name'",
      )}
Sources are matched to files by name, the name \`source add --file\` gives them (\`docs/guides/install.md\` for a
file found in the folder \`docs/\`), and a file is changed when its SHA-256 differs from its source's content_hash.
--json prints {"added":[…],"updated":[…],"unchanged":[…],"removed":[…]}, each a list of source objects (with
--dry-run, files to add are {"name","path"}).
`,
    )
    .action(async (paths: string[], flags: SyncFlags, command: Command) => {
      const { expandForSync } = await import('./folder-sync.ts');
      const files = expandForSync(paths, command);
      const { syncFolder } = await import('./folder-sync.ts');
      await syncFolder(await connect(command), paths, files, flags);
    });

  program
    .command('watch')
    .description(
      "Keep an application's file sources equal to the files under PATH: syncs them as `ckb sync` does, then again whenever a file changes, saying what changed, until Ctrl-C",
    )
    .requiredOption('--app <id>', 'application id')
    .argument('<paths...>', 'files and folders')
    .option('--delete', 'also remove the sources of files that are deleted')
    .addHelpText('after', examples('ckb watch --app $APP ./docs/', 'ckb watch --app $APP ./notes/ --delete'))
    .action(async (paths: string[], flags: { app: string; delete?: boolean }, command: Command) => {
      const { expandForSync } = await import('./folder-sync.ts');
      expandForSync(paths, command);
      const { watchFolders } = await import('./watch-run.ts');
      await watchFolders(await connect(command), paths, flags);
    });
}
