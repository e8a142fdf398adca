import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { cliEnvironment, runCli } from './run.ts';

const root = resolve(import.meta.dirname, '../..');

let daemon: TestDaemon;
let project: string;

/**
 * quickstart reads the README and docs/ of the project its CLI belongs to; this copy of the built CLI
 * belongs to a small project of known content, so the answer can be checked.
 */
async function projectWithDocs(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'ckb-project-'));
  await writeFile(join(folder, 'package.json'), JSON.stringify({ name: 'ckb', type: 'module' }));
  await symlink(join(root, 'node_modules'), join(folder, 'node_modules'));
  // The whole of dist/ as the build leaves it, package.json copy included, and the launcher.
  await cp(join(root, 'dist'), join(folder, 'dist'), { recursive: true });
  await cp(join(root, 'bin'), join(folder, 'bin'), { recursive: true });
  await writeFile(
    join(folder, 'README.md'),
    '# ckb\n\nAsk questions of your documents with cited answers.\n',
  );
  await mkdir(join(folder, 'docs'));
  await writeFile(
    join(folder, 'docs', 'sources.md'),
    '# Sources\n\nTo add a website as a source, run `ckb source add --app ID --website https://example.com`; the crawl follows the sitemap.\n',
  );
  return folder;
}

beforeAll(async () => {
  [daemon, project] = await Promise.all([startTestDaemon(), projectWithDocs()]);
});

afterAll(async () => {
  await daemon?.close();
  await rm(project, { recursive: true, force: true });
});

describe('ckb quickstart without a terminal', () => {
  it('loads the docs into "ckb docs", answers the sample question with citations, and reuses them next time', async () => {
    const env = cliEnvironment(daemon.home, daemon.url);
    const entry = join(project, 'bin/ckb'); // as the README's quick start runs it
    const first = await runCli(['quickstart'], { env, entryPoint: entry });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Q: How do I add a website as a source?');
    expect(first.stdout).toContain('--website');
    expect(first.stdout).toMatch(/Sources:\n {2}\[1\] sources\.md, page 1/);

    const second = await runCli(['quickstart'], { env, entryPoint: entry });
    expect(second.code).toBe(0);
    expect(second.stderr).not.toContain('adding');
    const applications = (await daemon.call('GET', '/applications')).body;
    expect(applications.filter((app: { name: string }) => app.name === 'ckb docs')).toHaveLength(1);
    const sources = (await daemon.call('GET', `/applications/${applications[0].id}/sources`)).body;
    expect(sources.map((source: { name: string }) => source.name).sort()).toEqual([
      'README.md',
      'sources.md',
    ]);
  });
});
