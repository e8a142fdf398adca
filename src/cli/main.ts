import module from 'node:module';

// Caches compiled code between runs: most of `ckb --help`'s start-up is parsing JavaScript.
module.enableCompileCache?.();

const { commanderExitCode, EXIT, interrupt } = await import('./exit.ts');
// The program comes bundled with commander (scripts/bundle-cli.ts): its CommanderError is the one thrown.
const { buildProgram, CommanderError } = await import('./program.ts');

process.on('SIGINT', interrupt);

// `ckb … | head` closes the pipe early: what is left to print has no reader, which is no failure of ours.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? EXIT.ok);
  });
}

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  // Commander has printed its own message; answering here keeps `--help` from loading the error mapping.
  if (error instanceof CommanderError) process.exit(commanderExitCode(error));
  const { exitCodeFor, describe, errorLine } = await import('./failure.ts');
  const code = exitCodeFor(error);
  const message = describe(error);
  if (message !== undefined) process.stderr.write(errorLine(message));
  process.exitCode = code;
}

// Nothing should keep a finished command alive, but a leftover socket must not delay the exit code either.
if (process.exitCode !== undefined && process.exitCode !== EXIT.ok) process.exit();
