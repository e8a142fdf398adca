import { Command } from 'commander';
import { registerApps } from './apps.ts';
import { registerChat } from './chat.ts';
import { registerConversations } from './conversations.ts';
import { registerDaemon } from './daemon.ts';
import { registerFiles } from './files.ts';
import { registerKeys } from './keys.ts';
import { registerMcp } from './mcp.ts';
import { registerQuickstart } from './quickstart.ts';
import { registerSearch } from './search.ts';
import { registerSources } from './sources.ts';

const VERSION = '0.1.0';

/** Cheap to build: every file registered here imports only commander's types; actions load the rest. */
export function buildProgram(): Command {
  const program = new Command('ckb')
    .description('Ask questions of your own documents and websites, with cited answers.')
    .version(VERSION, '-V, --version')
    .option('--url <url>', 'daemon URL (env CKB_URL; default http://127.0.0.1:7411)')
    .option('--api-key <key>', 'API key (env CKB_API_KEY; default from $CKB_HOME/config.json)')
    .option('--home <dir>', 'data and config directory (env CKB_HOME; default ~/.ckb)')
    .option('--json', "print the API's JSON exactly, nothing else on stdout")
    .option('--quiet', 'no progress or notices on stderr')
    .showSuggestionAfterError()
    // Commander exits 1 on usage errors; main.ts maps them to the contract's 2.
    .exitOverride();

  registerDaemon(program);
  registerApps(program);
  registerSources(program);
  registerFiles(program);
  registerSearch(program);
  registerChat(program);
  registerConversations(program);
  registerKeys(program);
  registerMcp(program);
  registerQuickstart(program);
  return program;
}
