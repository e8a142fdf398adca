import type { Command } from 'commander';

/** The options every command accepts (declared once on the program). */
export interface GlobalOptions {
  daemonUrl?: string;
  apiKey?: string;
  home?: string;
  json?: boolean;
  quiet?: boolean;
}

export function globalOptions(command: Command): GlobalOptions {
  return command.optsWithGlobals<GlobalOptions>();
}

/** The `Examples:` block that ends a command's `--help`, one `$ ckb …` line each. */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${line}\n`).join('')}`;
}

/** Resolves config, autostarts the daemon if needed and builds the client: loaded only when an action runs. */
export async function connect(command: Command) {
  const { openSession } = await import('./session.ts');
  return openSession(globalOptions(command));
}
