import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/** The shared corpus lives beside the project (`../shared/corpus`); it is read in place, never copied. */
export const corpusDir = resolve(import.meta.dirname, '../../../shared/corpus');

/** Corpus tests fail loudly, naming the path, rather than skip silently when the corpus is absent. */
export function requireCorpus(): string {
  if (!existsSync(resolve(corpusDir, 'files/MANIFEST.json'))) {
    throw new Error(
      `the shared corpus is absent: expected it at ${corpusDir} (the project's ../shared/corpus)`,
    );
  }
  return corpusDir;
}
