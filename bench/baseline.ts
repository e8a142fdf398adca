// The code before the SQL store, built once into bench/.cache, so a benchmark can run it side by side with
// today's code in the same run on the same machine (its figures beside ours, not from a day before).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, symlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/** The last commit before the metadata moved from LanceDB tables and a journal into SQL (issue 14). */
export const BASELINE_COMMIT = '85cd2ce';

const root = resolve(import.meta.dirname, '..');

/** The root of a built checkout of BASELINE_COMMIT, using this project's node_modules. */
export async function baselineRoot(): Promise<string> {
  const directory = join(root, 'bench', '.cache', `baseline-${BASELINE_COMMIT}`);
  if (existsSync(join(directory, 'dist', 'daemon', 'main.js'))) return directory;
  await mkdir(directory, { recursive: true });
  const archive = execFileSync('git', ['-C', root, 'archive', BASELINE_COMMIT], { maxBuffer: 1 << 28 });
  execFileSync('tar', ['-x', '-C', directory], { input: archive });
  if (!existsSync(join(directory, 'node_modules')))
    await symlink(join(root, 'node_modules'), join(directory, 'node_modules'));
  execFileSync(
    process.execPath,
    [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(directory, 'tsconfig.build.json')],
    {
      stdio: 'inherit',
    },
  );
  return directory;
}
