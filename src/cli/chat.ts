import type { Command } from 'commander';
import { connect } from './options.ts';

export function registerChat(program: Command): void {
  program
    .command('ask')
    .description('Ask one question; the reply streams to stdout, then its sources')
    .option('--app <id>', 'start a new conversation in this application')
    .option('--conversation <id>', 'continue this conversation')
    .option('--no-stream', 'wait for the whole reply instead of streaming it')
    .argument('<message...>', 'the question')
    .action(
      async (
        words: string[],
        flags: { app?: string; conversation?: string; stream: boolean },
        command: Command,
      ) => {
        if ((flags.app === undefined) === (flags.conversation === undefined)) {
          command.error('pass exactly one of --app or --conversation', { exitCode: 2 });
        }
        const session = await connect(command);
        const { ask } = await import('./conversation-turn.ts');
        await ask(session, {
          message: words.join(' '),
          ...(flags.app ? { application_id: flags.app } : {}),
          ...(flags.conversation ? { conversation_id: flags.conversation } : {}),
          stream: flags.stream,
        });
      },
    );

  program
    .command('chat')
    .description(
      'Talk with an application: /new starts over, /sources lists its sources, /exit or Ctrl-D leaves',
    )
    .requiredOption('--app <id>', 'application id')
    .option('--conversation <id>', 'continue this conversation')
    .action(async (flags: { app: string; conversation?: string }, command: Command) => {
      const session = await connect(command);
      const { runChat } = await import('./chat-loop.ts');
      await runChat(session, flags.app, flags.conversation);
    });
}
