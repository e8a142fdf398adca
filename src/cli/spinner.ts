import ora, { type Ora } from 'ora';
import type { Output } from './output.ts';

/** One progress line on stderr: animated on a terminal, start and end lines elsewhere, silent with --quiet. */
export function startSpinner(output: Output, text: string): Ora {
  return ora({
    stream: process.stderr,
    isSilent: output.quiet,
    // Off a terminal the spinner's frames are noise; only the first and final lines are printed. A terminal
    // that reports no width (a pty nobody sized) counts as none: ora would loop clearing lines forever.
    isEnabled: process.stderr.isTTY === true && process.stderr.columns > 0,
    // Raw mode would swallow Ctrl-C; the default SIGINT handling must keep working while waiting.
    discardStdin: false,
  }).start(text);
}

/** `2611` → `2,611`, whatever the locale, so progress reads the same everywhere. */
export function count(value: number): string {
  return value.toLocaleString('en-US');
}
