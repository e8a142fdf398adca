import type { Command } from 'commander';
import { connect, examples } from './options.ts';

export function registerSearch(program: Command): void {
  program
    .command('search')
    .description('Retrieve the passages a question would be answered from (no language model)')
    .requiredOption('--app <id>', 'application id')
    .option('--limit <k>', 'how many passages (1-50, default 5)', (value) => Number.parseInt(value, 10))
    .argument('<query...>', 'what to look for')
    .addHelpText(
      'after',
      examples('ckb search --app $APP "vacation days"', 'ckb search --app $APP --limit 10 --json refunds'),
    )
    .action(async (words: string[], flags: { app: string; limit?: number }, command: Command) => {
      if (flags.limit !== undefined && !(flags.limit >= 1 && flags.limit <= 50)) {
        command.error('--limit must be a whole number from 1 to 50', { exitCode: 2 });
      }
      const { client, output } = await connect(command);
      const results = await client.applications.search(flags.app, {
        query: words.join(' '),
        ...(flags.limit === undefined ? {} : { limit: flags.limit }),
      });
      if (output.json) {
        output.printJson(results);
        return;
      }
      if (results.length === 0) {
        output.notice('no passages found');
        return;
      }
      const { oneLine } = await import('./output.ts');
      results.forEach((result, index) => {
        const where = result.url ? ` ${output.colour.dim(result.url)}` : '';
        output.line(
          `${output.colour.bold(`[${index + 1}] ${result.source}, page ${result.page}`)} ${output.colour.dim(`score ${result.score.toFixed(2)}`)}${where}`,
        );
        output.line(`    ${oneLine(result.text, 300)}`);
      });
    });
}
