import type { Command } from 'commander';
import { connect, examples } from './options.ts';

export function registerChat(program: Command): void {
  program
    .command('ask')
    .description('Ask one question; the reply streams to stdout, then its sources')
    .option('--app <id>', 'start a new conversation in this application')
    .option('--conversation <id>', 'continue this conversation')
    .option('--no-stream', 'wait for the whole reply instead of streaming it')
    .argument('<message...>', 'the question')
    .addHelpText(
      'after',
      examples(
        'ckb ask --app $APP "How many vacation days do new staff get?"',
        'ckb ask --conversation CONV_ID "And part-time staff?"',
        'ckb ask --app $APP --json "What is covered?" | jq .sources',
      ),
    )
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
    .option('--app <id>', 'application id')
    .option('--conversation <id>', 'continue this conversation (its earlier messages are shown first)')
    .addHelpText(
      'after',
      examples(
        'ckb chat --app $APP',
        'ckb chat --conversation CONV_ID',
        'printf "Who funded it?\\n" | ckb chat --app $APP',
      ),
    )
    .action(async (flags: { app?: string; conversation?: string }, command: Command) => {
      if (flags.app === undefined && flags.conversation === undefined) {
        command.error('pass --app to start a conversation, or --conversation to continue one', {
          exitCode: 2,
        });
      }
      const session = await connect(command);
      const { runChat } = await import('./chat-loop.ts');
      await runChat(
        session,
        flags.app === undefined
          ? { conversationId: flags.conversation ?? '' }
          : {
              applicationId: flags.app,
              ...(flags.conversation ? { conversationId: flags.conversation } : {}),
            },
      );
    });
}
