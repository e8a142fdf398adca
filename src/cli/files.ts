import type { Command } from 'commander';
import { connect } from './options.ts';

export function registerFiles(program: Command): void {
  const files = program.command('file').description('Upload files to use as sources');

  files
    .command('upload')
    .description('Upload a local file through a pre-signed URL; prints the file id')
    .argument('<path>', 'the file (.pdf .doc .docx .ppt .pptx .md .json .eml .html .txt)')
    .action(async (path: string, _flags: object, command: Command) => {
      const { missingLocalFile } = await import('./source-add.ts');
      if (missingLocalFile(path)) command.error(`no such file: ${path}`, { exitCode: 2 });
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
}
