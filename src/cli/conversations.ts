import type { Command } from 'commander';
import { connect, examples } from './options.ts';

export function registerConversations(program: Command): void {
  const conversations = program.command('conv').description('Manage conversations');

  conversations
    .command('list')
    .description('List conversations')
    .option('--app <id>', 'only this application')
    .addHelpText('after', examples('ckb conv list --app $APP', 'ckb chat --conversation CONV_ID'))
    .action(async (flags: { app?: string }, command: Command) => {
      const { client, output } = await connect(command);
      const { printConversations } = await import('./render.ts');
      const list = flags.app
        ? await client.applications.conversations(flags.app)
        : await client.conversations.list();
      printConversations(output, list);
    });

  conversations
    .command('get')
    .description('Show a conversation with its messages')
    .argument('<id>', 'conversation id')
    .action(async (id: string, _flags: object, command: Command) => {
      const { client, output } = await connect(command);
      const conversation = await client.conversations.get(id);
      if (output.json) {
        output.printJson(conversation);
        return;
      }
      const { printMessages } = await import('./render.ts');
      output.line(output.colour.bold(conversation.title || conversation.id));
      output.line(
        output.colour.dim(
          `${conversation.id} · ${conversation.application_id} · ${conversation.total_tokens} tokens`,
        ),
      );
      printMessages(output, conversation.messages);
    });

  conversations
    .command('rename')
    .description('Change the title of a conversation')
    .argument('<id>', 'conversation id')
    .argument('<title...>', 'the new title')
    .action(async (id: string, words: string[], _flags: object, command: Command) => {
      const { client, output } = await connect(command);
      const conversation = await client.conversations.update(id, { title: words.join(' ') });
      if (output.json) {
        output.printJson(conversation);
        return;
      }
      if (!output.quiet) output.line(`Renamed ${conversation.id}: ${conversation.title}`);
    });

  conversations
    .command('rm')
    .description('Delete a conversation and its messages')
    .argument('<id>', 'conversation id')
    .action(async (id: string, _flags: object, command: Command) => {
      const { client, output } = await connect(command);
      const { printDeleted } = await import('./render.ts');
      printDeleted(output, await client.conversations.delete(id));
    });
}
