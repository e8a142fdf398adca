import type { Command } from 'commander';
import { connect, examples } from './options.ts';

export function registerFiles(program: Command): void {
  const files = program.command('file').description('Upload files to use as sources');

  files
    .command('upload')
    .description('Upload a local file through a pre-signed URL; prints the file id')
    .argument('<path>', 'the file (.pdf .doc .docx .ppt .pptx .md .json .eml .html .txt)')
    .addHelpText(
      'after',
      examples('FILE=$(ckb file upload report.pdf)', 'ckb source add --app $APP --file $FILE --wait'),
    )
    .action(async (path: string, _flags: object, command: Command) => {
      const { missingLocalFile } = await import('./source-add.ts');
      if (missingLocalFile(path)) command.error(`no such file: ${path}`, { exitCode: 2 });
      const { statSync } = await import('node:fs');
      if (statSync(path).isDirectory()) {
        command.error(
          `${path} is a folder; \`ckb file upload\` takes one file. To add each supported file in it as a source, run \`ckb source add --app APP_ID --file ${path}\``,
          { exitCode: 2 },
        );
      }
      const { client, output } = await connect(command);
      output.printCreated(await client.files.upload(path));
    });

  files
    .command('list')
    .description('List uploaded files')
    .action(async (_flags: object, command: Command) => {
      const { client, output } = await connect(command);
      const { shortTime } = await import('./output.ts');
      const list = await client.files.list();
      if (output.json) {
        output.printJson(list);
        return;
      }
      output.printTable(list, [
        { header: 'ID', value: (file) => file.id },
        { header: 'NAME', value: (file) => file.name },
        { header: 'BYTES', value: (file) => String(file.bytes), numeric: true },
        { header: 'UPLOADED', value: (file) => shortTime(file.uploaded_at) },
      ]);
    });

  files
    .command('rm')
    .description('Delete an uploaded file that no source uses')
    .argument('<id>', 'file id')
    .action(async (id: string, _flags: object, command: Command) => {
      const { client, output } = await connect(command);
      const { printDeleted } = await import('./render.ts');
      printDeleted(output, await client.files.delete(id));
    });
}
