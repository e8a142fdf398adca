import packageJson from '../package.json' with { type: 'json' };

/** ckb's version, as package.json declares it: the CLI's --version, the daemon's /health and OpenAPI. */
export const VERSION: string = packageJson.version;
