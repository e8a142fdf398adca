// Bundles the CLI's program into dist/src/cli/program.js, over the file tsc wrote there. `ckb --help` spent
// most of its time loading modules one by one (commander's seven CommonJS files and a dozen of ours); bundled,
// it loads main.js (which turns on Node's compile cache first, so the bundle is not parsed anew each run),
// exit.js and this one file. Only the modules that register commands are taken in: everything an action imports
// (dynamically) stays the separate file tsc compiled, so a command still loads only what it runs, and
// modules that hold state (exit.ts's interrupt handler) or classes tested with instanceof (the client's
// errors, through failure.ts) exist once, shared by the entry and the actions.
import { resolve } from 'node:path';
import { build, type Plugin } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const cli = resolve(root, 'src/cli');

/** The files bundled: the program, the command registrations and their option helpers. */
const BUNDLED = new Set(
  [
    'program.ts',
    'options.ts',
    'apps.ts',
    'chat.ts',
    'conversations.ts',
    'daemon.ts',
    'files.ts',
    'keys.ts',
    'mcp.ts',
    'quickstart.ts',
    'search.ts',
    'sources.ts',
    'sync.ts',
    'duration.ts',
  ]
    .map((name) => resolve(cli, name))
    // The version, read from package.json, which the bundle holds as a constant.
    .concat(resolve(root, 'src/version.ts'), resolve(root, 'package.json')),
);

/**
 * Node's modules commander imports, each served through `require` instead of an ES import. Commander loads
 * node:child_process for executable subcommands, which ckb has none of: that took 8 ms of `ckb --help`'s 30, so it
 * is loaded when a spawn is first asked for. An ES import of a built-in module builds a facade of all its exports,
 * reading every lazy getter: node:process's `stdin` and `stdout` load Node's stream modules, as node:fs's
 * `ReadStream` does, and node:util's `TextDecoder` the encodings (a third of `ckb --help` together). Through
 * `require` each is the module itself, its getters unread until used.
 */
const REQUIRED_BUILTINS: Record<string, string> = {
  'node:child_process': `export default { spawn: (...args) => require('node:child_process').spawn(...args) };`,
  'node:fs': `export default require('node:fs');`,
  'node:process': `export default require('node:process');`,
  'node:util': `export const { stripVTControlCharacters } = require('node:util');`,
};

const requiredBuiltin = (name: string) => `
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
${REQUIRED_BUILTINS[name]}
`;

/** Everything but the files above and commander stays an import of tsc's output, `.ts` becoming `.js`. */
const startupOnly: Plugin = {
  name: 'startup-only',
  setup(builder) {
    builder.onLoad({ filter: /.*/, namespace: 'required-builtin' }, (args) => ({
      contents: requiredBuiltin(args.path),
      loader: 'js',
    }));
    builder.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      if (args.path in REQUIRED_BUILTINS && args.importer.includes('/node_modules/commander/')) {
        return { path: args.path, namespace: 'required-builtin' };
      }
      if (args.path === 'commander' || args.importer.includes('/node_modules/commander/')) return undefined;
      if (!args.path.startsWith('.')) return { path: args.path, external: true };
      const target = resolve(args.resolveDir, args.path);
      if (BUNDLED.has(target)) return undefined;
      return { path: args.path.replace(/\.ts$/, '.js'), external: true };
    });
  },
};

await build({
  entryPoints: [resolve(cli, 'program.ts')],
  outfile: resolve(root, 'dist/src/cli/program.js'),
  allowOverwrite: true,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  plugins: [startupOnly],
  legalComments: 'inline',
  minify: true,
  logLevel: 'warning',
});
