import module from 'node:module';

// Caches compiled code between runs: most of `ckb --help`'s start-up is parsing JavaScript.
module.enableCompileCache?.();

const { CommanderError } = await import('commander');
const { commanderExitCode, EXIT, interrupt } = await import('./exit.ts');
const { buildProgram } = await import('./program.ts');

process.on('SIGINT', interrupt);

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  // Commander has printed its own message; answering here keeps `--help` from loading the error mapping.
  if (error instanceof CommanderError) process.exit(commanderExitCode(error));
  const { exitCodeFor, describe } = await import('./failure.ts');
  const code = exitCodeFor(error);
  const message = describe(error);
  if (message !== undefined) process.stderr.write(`ckb: ${message}\n`);
  process.exitCode = code;
}

// Nothing should keep a finished command alive, but a leftover socket must not delay the exit code either.
if (process.exitCode !== undefined && process.exitCode !== EXIT.ok) process.exit();
