/** Bad configuration: a usage error (exit 2) naming the flag, variable or file to fix. Kept apart from config.ts,
 * which loads zod, so the CLI can recognise it without loading the schemas. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
