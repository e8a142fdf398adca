import type { Command } from 'commander';
import { connect, examples } from './options.ts';

export function registerKeys(program: Command): void {
  const keys = program.command('keys').description('Manage API keys and accounts (admin key needed)');

  keys
    .command('create')
    .description('Create a key (and its account if new); prints the key, shown this once')
    .requiredOption('--account <name>', 'account name')
    .option('--admin', 'an admin key (can manage keys)')
    .addHelpText('after', examples('KEY=$(ckb keys create --account alice)', 'CKB_API_KEY=$KEY ckb app list'))
    .action(async (flags: { account: string; admin?: boolean }, command: Command) => {
      const { client, output } = await connect(command);
      const created = await client.keys.create({ account: flags.account, admin: flags.admin === true });
      if (output.json) {
        output.printJson(created);
        return;
      }
      // The secret is what a script needs (KEY=$(ckb keys create …)); it cannot be fetched again.
      output.line(created.key);
      output.notice(`key ${created.id} for account ${created.account}; it is shown only this once`);
    });

  keys
    .command('list')
    .description('List keys (without secrets)')
    .action(async (_flags: object, command: Command) => {
      const { client, output } = await connect(command);
      const { shortTime } = await import('./output.ts');
      const list = await client.keys.list();
      if (output.json) {
        output.printJson(list);
        return;
      }
      output.printTable(list, [
        { header: 'ID', value: (key) => key.id },
        { header: 'ACCOUNT', value: (key) => key.account },
        { header: 'ADMIN', value: (key) => (key.admin ? 'yes' : '') },
        { header: 'PREFIX', value: (key) => key.prefix },
        { header: 'CREATED', value: (key) => shortTime(key.created_at) },
        { header: 'REVOKED', value: (key) => (key.revoked_at ? shortTime(key.revoked_at) : '') },
      ]);
    });

  keys
    .command('revoke')
    .description('Revoke a key at once')
    .argument('<id>', 'key id')
    .action(async (id: string, _flags: object, command: Command) => {
      const { client, output } = await connect(command);
      const { printDeleted } = await import('./render.ts');
      printDeleted(output, await client.keys.revoke(id));
    });
}
