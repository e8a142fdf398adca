import type { Command } from 'commander';
import { connect } from './options.ts';

export function registerQuickstart(program: Command): void {
  program
    .command('quickstart')
    .description("Start the daemon, load this project's documentation into an application, and chat with it")
    .action(async (_flags: object, command: Command) => {
      const session = await connect(command);
      const { quickstart } = await import('./quickstart-run.ts');
      await quickstart(session);
    });
}
