// npm 11 writes package-lock.json without the records of optional packages built for other platforms
// (LanceDB, Biome and canvas binaries for macOS, Windows, musl…) when it cannot resolve them (the registry
// reachable here does not serve them), and `npm ci` then refuses the lock as out of sync (npm/cli#4828,
// #8805). This adds those records, from the registry when it knows the package, else with the platform
// read from the package's name, so `npm ci` skips them on every other platform. Run it after `npm install`:
//   node_modules/.bin/node scripts/complete-lockfile.ts
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

interface LockPackage {
  version?: string;
  optionalDependencies?: Record<string, string>;
  [field: string]: unknown;
}

const path = resolve(import.meta.dirname, '../package-lock.json');
const lock = JSON.parse(readFileSync(path, 'utf8')) as { packages: Record<string, LockPackage> };

/** The platform a binary package is for, from names like `@biomejs/cli-linux-arm64-musl`. */
function platformFromName(name: string, version: string): LockPackage {
  const os = /(android|darwin|linux|win32|freebsd|openbsd|sunos|aix)/.exec(name)?.[1];
  const cpu = /(arm64|x64|ia32|riscv64|s390x|ppc64|loong64|arm)/.exec(name)?.[1];
  const record: LockPackage = { version };
  if (cpu) record['cpu'] = [cpu];
  if (os) record['os'] = [os];
  if (name.includes('musl')) record['libc'] = ['musl'];
  else if (os === 'linux' && name.includes('gnu')) record['libc'] = ['glibc'];
  record['optional'] = true;
  return record;
}

function recordFor(name: string, spec: string): LockPackage {
  let output: string;
  try {
    output = execFileSync('npm', ['view', `${name}@${spec}`, '--json'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    return platformFromName(name, spec);
  }
  const metadata = JSON.parse(output);
  const latest = Array.isArray(metadata) ? metadata.at(-1) : metadata;
  const record: LockPackage = { version: latest.version, integrity: latest.dist.integrity };
  for (const field of ['cpu', 'os', 'libc', 'engines', 'license'] as const) {
    if (latest[field] !== undefined) record[field] = latest[field];
  }
  record['optional'] = true;
  return record;
}

/** Where Node looks for `name` from the package at `location`: its own node_modules, then each ancestor's. */
function candidates(location: string, name: string): string[] {
  const result: string[] = [];
  for (let current = location; ; ) {
    result.push(current ? `${current}/node_modules/${name}` : `node_modules/${name}`);
    if (!current) return result;
    const index = current.lastIndexOf('/node_modules/');
    current = index === -1 ? '' : current.slice(0, index);
  }
}

let added = 0;
for (const [location, entry] of Object.entries(lock.packages)) {
  for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    const places = candidates(location, name);
    const found = places.map((place) => lock.packages[place]).find((record) => record !== undefined);
    if (found && (found.version === spec || !/^\d/.test(spec))) continue;
    // Beside the package that depends on it, as npm places it when nothing conflicts.
    const target = places[1] ?? places[0]!;
    lock.packages[target] = recordFor(name, spec);
    added += 1;
    process.stderr.write(`added ${target}@${lock.packages[target]?.version}\n`);
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
process.stderr.write(`${added} records added\n`);
