import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { LANGUAGE_CODE } from '../../../src/language-code.ts';

const require = createRequire(import.meta.url);

/**
 * The model file of an installed language pack: the npm package `@tesseract.js-data/<code>` (English,
 * `@tesseract.js-data/eng`, is a dependency). Its LSTM-only model when it has one (what the recogniser runs),
 * else the full one, which holds it too. Undefined when the pack is not installed.
 */
export function languagePackFile(code: string): string | undefined {
  if (!LANGUAGE_CODE.test(code)) return undefined;
  let manifest: string;
  try {
    manifest = require.resolve(`@tesseract.js-data/${code}/package.json`);
  } catch {
    return undefined;
  }
  for (const model of ['4.0.0_best_int', '4.0.0']) {
    const file = join(dirname(manifest), model, `${code}.traineddata.gz`);
    if (existsSync(file)) return file;
  }
  return undefined;
}

/** The languages of a list whose pack is not installed, each with what to do about it. */
export function missingLanguagePacks(codes: readonly string[]): string[] {
  return codes
    .filter((code) => languagePackFile(code) === undefined)
    .map((code) =>
      LANGUAGE_CODE.test(code)
        ? `"${code}" (install it with npm install @tesseract.js-data/${code})`
        : `"${code}" (not a language code such as "eng" or "chi_sim")`,
    );
}
