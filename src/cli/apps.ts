import type { Command } from 'commander';
import type { ApplicationInput } from '../client/index.ts';
import { connect, examples } from './options.ts';

type ModelInput = ApplicationInput['model'];

export function registerApps(program: Command): void {
  const apps = program.command('app').description('Manage applications');

  apps
    .command('create')
    .description('Create an application; prints its id')
    .requiredOption('--name <name>', 'application name')
    .option('--description <text>', 'what it is for')
    .option('--model <model>', 'lm-3.5-turbo (default) or lm-4')
    .option('--system-message <text>', 'instructions for the language model')
    .addHelpText(
      'after',
      examples(
        'APP=$(ckb app create --name "Handbook")',
        'ckb app create --name Support --model lm-4 --json',
      ),
    )
    .action(
      async (
        flags: { name: string; description?: string; model?: string; systemMessage?: string },
        command: Command,
      ) => {
        const { client, output } = await connect(command);
        const created = await client.applications.create({
          name: flags.name,
          ...(flags.description === undefined ? {} : { description: flags.description }),
          ...(flags.model === undefined ? {} : { model: flags.model as ModelInput }),
          ...(flags.systemMessage === undefined ? {} : { system_message: flags.systemMessage }),
        });
        output.printCreated(created);
      },
    );

  apps
    .command('list')
    .description('List applications')
    .action(async (_flags: object, command: Command) => {
      const { client, output } = await connect(command);
      const { shortTime } = await import('./output.ts');
      const list = await client.applications.list();
      if (output.json) {
        output.printJson(list);
        return;
      }
      output.printTable(list, [
        { header: 'ID', value: (app) => app.id },
        { header: 'NAME', value: (app) => app.name },
        { header: 'MODEL', value: (app) => app.model },
        { header: 'CREATED', value: (app) => shortTime(app.created_at) },
      ]);
    });

  apps
    .command('get')
    .description('Show an application')
    .argument('<id>', 'application id')
    .action(async (id: string, _flags: object, command: Command) => {
      const { client, output } = await connect(command);
      const { printApplication } = await import('./render.ts');
      printApplication(output, await client.applications.get(id));
    });

  apps
    .command('update')
    .description('Change an application')
    .argument('<id>', 'application id')
    .option('--name <name>', 'new name')
    .option('--description <text>', 'new description')
    .option('--model <model>', 'lm-3.5-turbo or lm-4')
    .option('--system-message <text>', 'new instructions for the language model')
    .action(
      async (
        id: string,
        flags: { name?: string; description?: string; model?: string; systemMessage?: string },
        command: Command,
      ) => {
        const changes = {
          ...(flags.name === undefined ? {} : { name: flags.name }),
          ...(flags.description === undefined ? {} : { description: flags.description }),
          ...(flags.model === undefined ? {} : { model: flags.model as ModelInput }),
          ...(flags.systemMessage === undefined ? {} : { system_message: flags.systemMessage }),
        };
        if (Object.keys(changes).length === 0) {
          command.error('nothing to update: pass --name, --description, --model or --system-message', {
            exitCode: 2,
          });
        }
        const { client, output } = await connect(command);
        const { printApplication } = await import('./render.ts');
        printApplication(output, await client.applications.update(id, changes));
      },
    );

  apps
    .command('rm')
    .description('Delete an application with its sources and conversations')
    .argument('<id>', 'application id')
    .option('-y, --yes', 'delete without asking (a terminal asks first)')
    .addHelpText('after', examples('ckb app rm $APP', 'ckb app rm $APP --yes'))
    .action(async (id: string, flags: { yes?: boolean }, command: Command) => {
      const { client, output } = await connect(command);
      const { confirmApplicationDelete } = await import('./confirm.ts');
      if (!(await confirmApplicationDelete(client, id, flags.yes))) {
        output.notice('nothing was deleted');
        return;
      }
      const { printDeleted } = await import('./render.ts');
      printDeleted(output, await client.applications.delete(id));
    });

  apps
    .command('sources')
    .description("List an application's sources")
    .argument('<id>', 'application id')
    .action(async (id: string, _flags: object, command: Command) => {
      const { client, output } = await connect(command);
      const { printSources } = await import('./render.ts');
      printSources(output, await client.applications.sources(id));
    });

  apps
    .command('conversations')
    .description("List an application's conversations")
    .argument('<id>', 'application id')
    .action(async (id: string, _flags: object, command: Command) => {
      const { client, output } = await connect(command);
      const { printConversations } = await import('./render.ts');
      printConversations(output, await client.applications.conversations(id));
    });

  apps
    .command('clear-sources')
    .description("Delete all of an application's sources")
    .argument('<id>', 'application id')
    .option('-y, --yes', 'delete without asking (a terminal asks first)')
    .action(async (id: string, flags: { yes?: boolean }, command: Command) => {
      const { client, output } = await connect(command);
      const { confirmClearSources } = await import('./confirm.ts');
      if (!(await confirmClearSources(client, id, flags.yes))) {
        output.notice('nothing was deleted');
        return;
      }
      const { plural } = await import('./output.ts');
      const cleared = await client.applications.clearSources(id);
      if (output.json) {
        output.printJson(cleared);
        return;
      }
      output.line(`Deleted ${plural(cleared.deleted, 'source')} of ${cleared.application_id}`);
    });
}
