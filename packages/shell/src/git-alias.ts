/**
 * Aliases defined on git's own command line (`git -c alias.nuke='reset --hard' nuke`): the subcommand
 * is then the alias's words, or, for `!…`, a shell command git runs with the remaining arguments.
 */

const globalOptionsWithValue = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env", "--super-prefix"]);

export interface GitWords {
  /** Where the subcommand is in the arguments (`args.length` when there is none). */
  index: number;
  /** The value of `-c alias.<subcommand>=…`, when the line defines the subcommand as an alias. */
  alias?: string;
}

/** Finds git's subcommand after its global options, and an alias for it set with `-c`. */
export function gitWords(args: readonly string[]): GitWords {
  let aliases: Map<string, string> | undefined;
  let index = 0;
  while (index < args.length && args[index]!.startsWith("-")) {
    const arg = args[index]!;
    const config = arg === "-c" ? args[index + 1] : arg.startsWith("-c") ? arg.slice(2) : undefined;
    const alias = config === undefined ? undefined : /^alias\.([^=]+)=(.*)$/is.exec(config);
    if (alias) (aliases ??= new Map()).set(alias[1]!.toLowerCase(), alias[2]!);
    index += globalOptionsWithValue.has(arg) ? 2 : 1;
  }
  const alias = aliases?.get(args[index]?.toLowerCase() ?? "");
  return alias === undefined ? { index } : { index, alias };
}
