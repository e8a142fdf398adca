import ora from 'ora';
import type { Output } from './output.ts';

/** The progress line of a long command; `succeed`, `fail` and `stop` end it. */
export interface Progress {
  text: string;
  succeed(text: string): void;
  fail(text: string): void;
  stop(): void;
}

/**
 * One progress line on stderr: animated on a terminal, start and end lines elsewhere, silent with --quiet.
 * The end symbols are painted with our own colours, which follow whether stderr is a terminal: ora's own
 * (log-symbols) follow the environment only, and wrote colour codes into files.
 */
export function startSpinner(output: Output, text: string): Progress {
  const terminal = process.stderr.isTTY === true && process.stderr.columns > 0;
  const spinner = ora({
    stream: process.stderr,
    isSilent: output.quiet,
    // Off a terminal the spinner's frames are noise; only the first and final lines are printed. A terminal
    // that reports no width (a pty nobody sized) counts as none: ora would loop clearing lines forever.
    isEnabled: terminal,
    color: terminal && output.errorColour.level > 0 ? 'cyan' : false,
    // Raw mode would swallow Ctrl-C; the default SIGINT handling must keep working while waiting.
    discardStdin: false,
  }).start(text);
  const paint = output.errorColour;
  return {
    get text() {
      return spinner.text;
    },
    set text(value: string) {
      spinner.text = value;
    },
    succeed: (final) => void spinner.stopAndPersist({ symbol: paint.green('✔'), text: final }),
    fail: (final) => void spinner.stopAndPersist({ symbol: paint.red('✖'), text: final }),
    stop: () => void spinner.stop(),
  };
}
