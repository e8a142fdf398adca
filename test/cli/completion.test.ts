import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cliEnvironment, runCli } from './run.ts';

const env = cliEnvironment('/nonexistent', 'http://127.0.0.1:9');

async function script(shell: string): Promise<string> {
  const result = await runCli(['completion', shell], { env });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return result.stdout;
}

/** What bash offers after `line` (a trailing space starts a new word), with the generated script loaded. */
function bashCompletes(completion: string, line: string): string[] {
  const program = `
source /dev/stdin <<'SCRIPT'
${completion}
SCRIPT
read -ra COMP_WORDS <<< "$LINE"
[[ "$LINE" == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$((\${#COMP_WORDS[@]} - 1))
_ckb
printf '%s\\n' "\${COMPREPLY[@]}"`;
  const result = spawnSync('bash', ['--norc', '--noprofile', '-c', program], {
    env: { LINE: line, PATH: process.env['PATH'] },
    encoding: 'utf8',
  });
  expect(result.stderr).toBe('');
  return result.stdout.split('\n').filter((word) => word !== '');
}

describe('ckb completion', () => {
  it('bash completes commands, subcommands and each command’s options, past global options and values', async () => {
    const completion = await script('bash');
    expect(bashCompletes(completion, 'ckb so')).toEqual(['source']);
    expect(bashCompletes(completion, 'ckb source ')).toEqual([
      'add',
      'update',
      'sync',
      'wait',
      'list',
      'get',
      'rm',
      'chunks',
      '--daemon-url',
      '--api-key',
      '--home',
      '--json',
      '--quiet',
      '--help',
    ]);
    expect(bashCompletes(completion, 'ckb --json source add --app app_1 --ur')).toEqual(['--url', '--urls']);
    expect(bashCompletes(completion, 'ckb app rm app_1 --y')).toEqual(['--yes']);
    expect(bashCompletes(completion, 'ckb completion ')).toContain('--help');
  });

  it('zsh loads the same completion through bashcompinit', async () => {
    const completion = await script('zsh');
    expect(completion).toContain('bashcompinit');
    expect(completion).toContain('complete -o default -F _ckb ckb');
  });

  it('fish has a line per subcommand and option under its parent, and file names where paths go', async () => {
    const completion = await script('fish');
    expect(completion).toContain(
      "complete -c ckb -n '__fish_use_subcommand' -a source -d 'Add and inspect the sources an application answers from'",
    );
    expect(completion).toMatch(
      /complete -c ckb -n '__fish_seen_subcommand_from add; and __fish_seen_subcommand_from source; [^']*' -l url -r -d 'one web page'/,
    );
    expect(completion).toMatch(/-l file -r -F/);
    expect(completion).toMatch(
      /__fish_seen_subcommand_from upload; and __fish_seen_subcommand_from file; [^']*' -F\n/,
    );
  });

  it('refuses an unknown shell with a usage error', async () => {
    const result = await runCli(['completion', 'tcsh'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('ckb: unknown shell "tcsh": use bash, zsh, fish\n');
  });
});
