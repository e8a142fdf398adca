import { CommanderError } from 'commander';
import {
  CkbApiError,
  DaemonUnreachableError,
  InvalidResponseError,
  RequestAbortedError,
} from '../client/errors.ts';
import { ConfigError } from '../config-error.ts';
import { commanderExitCode, EXIT, ExitError } from './exit.ts';

/** Every error the CLI prints begins with this, whether commander, the CLI or the daemon found it. */
const ERROR_PREFIX = 'ckb: ';

/** One error message as printed on stderr: the prefix, the message, one newline. */
export function errorLine(message: string): string {
  return `${ERROR_PREFIX}${message.replace(/^error: /, '').trimEnd()}\n`;
}

/** The one place an error becomes an exit code. */
export function exitCodeFor(error: unknown): number {
  if (error instanceof CommanderError) return commanderExitCode(error);
  if (error instanceof ExitError) return error.exitCode;
  if (error instanceof ConfigError) return EXIT.usage;
  if (error instanceof DaemonUnreachableError) return EXIT.unreachable;
  if (error instanceof RequestAbortedError) return EXIT.interrupted;
  if (isPromptExit(error)) return EXIT.interrupted;
  return EXIT.apiError;
}

/** The line for stderr, or undefined when it was already printed (commander prints its own errors). */
export function describe(error: unknown): string | undefined {
  if (error instanceof CommanderError) return undefined;
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
