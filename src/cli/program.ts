import { Command } from 'commander';
import { VERSION } from '../version.ts';
import { registerApps } from './apps.ts';
import { registerChat } from './chat.ts';
import { registerConversations } from './conversations.ts';
import { registerDaemon } from './daemon.ts';
import { errorLine } from './exit.ts';
import { registerFiles } from './files.ts';
import { registerKeys } from './keys.ts';
import { registerMcp } from './mcp.ts';
import { examples } from './options.ts';
import { registerQuickstart } from './quickstart.ts';
import { registerSearch } from './search.ts';
import { registerSources } from './sources.ts';
import { registerSync } from './sync.ts';

export { CommanderError } from 'commander';

/** Cheap to build: every file registered here imports only commander's types; actions load the rest. */
export function buildProgram(): Command {
  const program = new Command('ckb')
    .description('Ask questions of your own documents and websites, with cited answers.')
    .version(VERSION, '-V, --version')
    // Not `--url`: global options are recognised after the subcommand too, and `source add --url` is a page.
    .option('--daemon-url <url>', 'daemon URL (env CKB_URL; default http://127.0.0.1:7411)')
    .option('--api-key <key>', 'API key (env CKB_API_KEY; default from $CKB_HOME/config.json)')
    .option('--home <dir>', 'data and config directory (env CKB_HOME; default ~/.ckb)')
    .option('--json', "print the API's JSON exactly, nothing else on stdout")
    .option('--quiet', 'no progress or notices on stderr')
    .showSuggestionAfterError()
    // Commander's own messages begin `error:`; every error the CLI prints begins the same way.
    .configureOutput({ outputError: (text, write) => write(errorLine(text)) })
    // Commander exits 1 on usage errors; main.ts maps them to the contract's 2.
    .exitOverride();

  registerDaemon(program);
  registerApps(program);
  registerSources(program);
  registerSync(program);
  registerFiles(program);
  registerSearch(program);
  registerChat(program);
  registerConversations(program);
  registerKeys(program);
  registerMcp(program);
  registerQuickstart(program);
  program
    .command('completion')
    .description('Print the shell completion script for bash, zsh or fish')
    .argument('<shell>', 'bash, zsh or fish')
    .addHelpText(
      'after',
      examples(
        'source <(ckb completion bash)        # in ~/.bashrc',
        'source <(ckb completion zsh)         # in ~/.zshrc',
        'ckb completion fish > ~/.config/fish/completions/ckb.fish',
      ),
    )
    .action(async (shell: string, _flags: object, command: Command) => {
      const { completionScript, SHELLS } = await import('./completion.ts');
      const known = SHELLS.find((name) => name === shell);
      if (known === undefined)
        command.error(`unknown shell "${shell}": use ${SHELLS.join(', ')}`, { exitCode: 2 });
      process.stdout.write(completionScript(program, known));
    });
  program.addHelpText(
    'after',
    examples(
      'ckb daemon start',
      'APP=$(ckb app create --name "Handbook")',
      'ckb source add --app $APP --file ./docs/ --wait',
      'ckb ask --app $APP "How many vacation days do new staff get?"',
      'ckb chat --app $APP',
    ),
  );
  return program;
}
