/** Every error the CLI prints begins with this, whether commander, the CLI or the daemon found it. */
const ERROR_PREFIX = 'ckb: ';

/** One error message as printed on stderr (through failure.ts): the prefix, the message, one newline. */
export function errorLine(message: string): string {
  return `${ERROR_PREFIX}${message.replace(/^error: /, '').trimEnd()}\n`;
}

/** Exit codes of the contract. */
export const EXIT = { ok: 0, apiError: 1, usage: 2, unreachable: 3, interrupted: 130 } as const;

/** A failure the CLI itself detects (a source that FAILED, a daemon that would not start), with its exit code. */
export class ExitError extends Error {
  override name = 'ExitError';
  readonly exitCode: number;

  constructor(message: string, exitCode: number = EXIT.apiError) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** Commander's own outcomes: help and version are successes, everything else it reports is a usage error. */
export function commanderExitCode(error: { code: string }): number {
  return error.code === 'commander.helpDisplayed' || error.code === 'commander.version'
    ? EXIT.ok
    : EXIT.usage;
}

type InterruptHandler = () => void;

const exitOnInterrupt: InterruptHandler = () => process.exit(EXIT.interrupted);
let interruptHandler = exitOnInterrupt;

/** main.ts routes SIGINT here so a command (chat) can cancel a reply instead of leaving; returns the restorer. */
export function onInterrupt(handler: InterruptHandler): () => void {
  const previous = interruptHandler;
  interruptHandler = handler;
  return () => {
    interruptHandler = previous;
  };
}

export function interrupt(): void {
  interruptHandler();
}
