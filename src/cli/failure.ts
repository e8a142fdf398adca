import {
  CkbApiError,
  DaemonUnreachableError,
  InvalidResponseError,
  RequestAbortedError,
} from '../client/errors.ts';
import { ConfigError } from '../config-error.ts';
import { commanderExitCode, EXIT, ExitError } from './exit.ts';

// Defined beside the exit codes, which `--help` loads anyway; this module would load the client's errors too.
export { errorLine } from './exit.ts';

/** The one place an error becomes an exit code. */
export function exitCodeFor(error: unknown): number {
  if (isCommanderError(error)) return commanderExitCode(error);
  if (error instanceof ExitError) return error.exitCode;
  if (error instanceof ConfigError) return EXIT.usage;
  if (error instanceof DaemonUnreachableError) return EXIT.unreachable;
  if (error instanceof RequestAbortedError) return EXIT.interrupted;
  if (isPromptExit(error)) return EXIT.interrupted;
  return EXIT.apiError;
}

/** The line for stderr, or undefined when it was already printed (commander prints its own errors). */
export function describe(error: unknown): string | undefined {
  if (isCommanderError(error)) return undefined;
  if (error instanceof DaemonUnreachableError) {
    return `${error.message}; start it with \`ckb daemon start\` or check --daemon-url / CKB_URL`;
  }
  if (error instanceof CkbApiError) return error.param ? `${error.message} (${error.param})` : error.message;
  if (error instanceof RequestAbortedError || isPromptExit(error)) return 'interrupted';
  if (error instanceof ExitError || error instanceof ConfigError || error instanceof InvalidResponseError) {
    return error.message;
  }
  if (process.env['CKB_DEBUG'] === '1' && error instanceof Error) return error.stack;
  return error instanceof Error ? error.message : String(error);
}

/** @inquirer/prompts rejects with ExitPromptError on Ctrl-C or Ctrl-D at a prompt. */
function isPromptExit(error: unknown): boolean {
  return error instanceof Error && error.name === 'ExitPromptError';
}

/**
 * Commander's errors, recognised by their `commander.*` code: the program's copy of commander is bundled into
 * the CLI's entry (scripts/bundle-cli.ts), so its class is not the one `import 'commander'` would load here.
 */
function isCommanderError(error: unknown): error is { code: string } {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('commander.');
}
