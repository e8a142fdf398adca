import type { Command } from 'commander';
import { globalOptions } from './options.ts';

export function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description('Serve ckb to AI tools (Claude Desktop, Cursor, VS Code…) as an MCP server over stdio')
    .addHelpText(
      'after',
      '\nTools: list_applications, list_sources, search, ask, add_source; applications are also resources.\n' +
        'The daemon is started in the background when it is not running (unless CKB_NO_AUTOSTART=1).\n' +
        'Configure your AI tool to run `npx ckb mcp` (see the README for snippets).',
    )
    .action(async (_flags: unknown, command: Command) => {
      const { serveMcpOverStdio } = await import('../mcp/stdio.ts');
      await serveMcpOverStdio(globalOptions(command), program.version() ?? '');
    });
}
