import type { Command } from 'commander';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

interface Node {
  /** `ckb source add` → ['source', 'add']. */
  path: string[];
  command: Command;
}

/** Every command of the tree with its path of subcommand names from the program down. */
function nodes(command: Command, path: string[] = []): Node[] {
  return [{ path, command }, ...command.commands.flatMap((child) => nodes(child, [...path, child.name()]))];
}

/** A command's own long options, and the program's (global) ones, which commander accepts anywhere. */
function optionsOf(command: Command, program: Command): string[] {
  const own = command.options.flatMap((option) => (option.long ? [option.long] : []));
  const global =
    command === program
      ? []
      : program.options.flatMap((option) =>
          option.long && option.long !== '--version' ? [option.long] : [],
        );
  return [...own, ...global, '--help'];
}

function quoteSingle(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/**
 * Bash: the words typed so far walk the tree of subcommands (options and their values are stepped over, as
 * they match no subcommand), and the command reached offers its subcommands and options; anything else
 * falls back to file names (`--file`, `file upload`).
 */
function bash(program: Command): string {
  const all = nodes(program);
  const known = all
    .filter((node) => node.path.length > 0)
    .map(
      (node) =>
        `    ${quoteSingle(['ckb', ...node.path].join(' '))}) key=${quoteSingle(['ckb', ...node.path].join(' '))} ;;`,
    );
  const words = all.map(({ path, command }) => {
    const choices = [...command.commands.map((child) => child.name()), ...optionsOf(command, program)];
    return `    ${quoteSingle(['ckb', ...path].join(' '))}) words=${quoteSingle(choices.join(' '))} ;;`;
  });
  return `# ckb completion for bash: add to ~/.bashrc
#   source <(ckb completion bash)
_ckb() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" key=ckb words="" i
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "$key \${COMP_WORDS[i]}" in
${known.join('\n')}
    esac
  done
  case "$key" in
${words.join('\n')}
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _ckb ckb
`;
}

/** Zsh runs the bash completion through its bashcompinit layer: one tree walk to maintain, not two. */
function zsh(program: Command): string {
  return `# ckb completion for zsh: add to ~/.zshrc
#   source <(ckb completion zsh)
autoload -U +X compinit && compinit
autoload -U +X bashcompinit && bashcompinit
${bash(program).replace(/^# .*\n#.*\n/, '')}`;
}

/** Fish: one `complete` line per subcommand and option, each under the condition of its parent command. */
function fish(program: Command): string {
  const lines = [
    '# ckb completion for fish: save as ~/.config/fish/completions/ckb.fish',
    '#   ckb completion fish > ~/.config/fish/completions/ckb.fish',
    'complete -c ckb -f',
  ];
  for (const { path, command } of nodes(program)) {
    const condition =
      path.length === 0
        ? '__fish_use_subcommand'
        : `__fish_seen_subcommand_from ${path.at(-1)}${path.length > 1 ? `; and __fish_seen_subcommand_from ${path.at(-2)}` : ''}; and not __fish_seen_subcommand_from ${command.commands.map((child) => child.name()).join(' ') || '--'}`;
    for (const child of command.commands) {
      lines.push(
        `complete -c ckb -n ${quoteSingle(condition)} -a ${child.name()} -d ${quoteSingle(child.description())}`,
      );
    }
    if (command === program) {
      for (const option of program.options) {
        if (option.long)
          lines.push(
            `complete -c ckb -l ${option.long.slice(2)}${option.required ? ' -r' : ''} -d ${quoteSingle(option.description)}`,
          );
      }
      continue;
    }
    // A command whose argument is a path (`file upload PATH`) completes file names.
    if (command.registeredArguments.some((argument) => argument.name() === 'path')) {
      lines.push(`complete -c ckb -n ${quoteSingle(condition)} -F`);
    }
    for (const option of command.options) {
      if (!option.long) continue;
      const takesFiles = option.long === '--file';
      const value = option.required ? (takesFiles ? ' -r -F' : ' -r') : '';
      lines.push(
        `complete -c ckb -n ${quoteSingle(condition)} -l ${option.long.slice(2)}${value} -d ${quoteSingle(option.description)}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

export function completionScript(program: Command, shell: Shell): string {
  return { bash, zsh, fish }[shell](program);
}
