import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/** The shared corpus lives beside the project (`../shared/corpus`); it is read in place, never copied. */
export const corpusDir = resolve(import.meta.dirname, '../../../shared/corpus');

function corpusPresent(): boolean {
  return existsSync(resolve(corpusDir, 'files/MANIFEST.json'));
}

const ABSENT = `the shared corpus is absent (expected at ${corpusDir}, the project's ../shared/corpus)`;

/** For benchmarks, which measure the corpus or nothing: fails loudly, naming the path. */
export function requireCorpus(): string {
  if (!corpusPresent()) throw new Error(`this benchmark needs the corpus, but ${ABSENT}`);
  return corpusDir;
}

/**
 * For tests: the corpus directory, or undefined when it is absent (a fresh clone with nothing beside it), after
 * one line on stderr naming what is skipped and why; the caller then skips `what` with `describe.skipIf`.
 * With `CI` set the corpus must be there, so its absence fails instead of skipping.
 */
export function corpusOrSkip(what: string): string | undefined {
  if (corpusPresent()) return corpusDir;
  if (process.env['CI']) throw new Error(`${ABSENT}, and CI must have it: ${what} cannot run`);
  process.stderr.write(`skipped ${what}: ${ABSENT}\n`);
  return undefined;
}
