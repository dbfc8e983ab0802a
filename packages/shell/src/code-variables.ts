/**
 * Variables whose value bash, or a program it starts, later runs as code or uses to find code: setting one
 * is running what it holds. Each has a role that says how its value is read.
 */

/**
 * - `command`: a command line (`PROMPT_COMMAND`, `GIT_SSH_COMMAND`, `PAGER`, …), read as `sh -c` would read it.
 * - `prompt`: a prompt string (`PS4`, `PS1`, …): its `$(…)` and backticks run each time it is printed.
 * - `sourced`: the path of a file bash reads as a script (`BASH_ENV`, `ENV`): only a file the line wrote is known.
 * - `folders`: where programs or libraries are looked up (`PATH`, `LD_LIBRARY_PATH`): each folder must be known.
 * - `loads`: code loaded into every program (`LD_PRELOAD`, `BASH_FUNC_f%%`, `GIT_EXEC_PATH`): never read here.
 * - `options`: settings (`SHELLOPTS`, `NODE_OPTIONS`, …): a value that cannot be known, or one that loads code, is not read.
 */
export type CodeRole = "command" | "prompt" | "sourced" | "folders" | "loads" | "options";

const roles = new Map<string, CodeRole>([
  ...[
    "PROMPT_COMMAND",
    "GIT_SSH_COMMAND",
    "GIT_SSH",
    "GIT_PAGER",
    "GIT_EDITOR",
    "GIT_SEQUENCE_EDITOR",
    "GIT_EXTERNAL_DIFF",
    "GIT_PROXY_COMMAND",
    "GIT_ASKPASS",
    "SSH_ASKPASS",
    "SUDO_ASKPASS",
    "PAGER",
    "EDITOR",
    "VISUAL",
    "SUDO_EDITOR",
    "FCEDIT",
    "MANPAGER",
    "LESSOPEN",
    "LESSCLOSE",
    "SYSTEMD_PAGER",
    "SYSTEMD_EDITOR",
    "BROWSER",
  ].map((name) => [name, "command"] as const),
  ...["PS0", "PS1", "PS2", "PS3", "PS4"].map((name) => [name, "prompt"] as const),
  ...["BASH_ENV", "ENV", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG", "PYTHONSTARTUP"].map((name) => [name, "sourced"] as const),
  ...["PATH", "LD_LIBRARY_PATH", "DYLD_LIBRARY_PATH", "DYLD_FALLBACK_LIBRARY_PATH", "BASH_LOADABLES_PATH"].map((name) => [name, "folders"] as const),
  ...["LD_PRELOAD", "LD_AUDIT", "DYLD_INSERT_LIBRARIES", "GIT_EXEC_PATH", "GIT_TEMPLATE_DIR", "GIT_CONFIG_PARAMETERS"].map((name) => [name, "loads"] as const),
  ...["SHELLOPTS", "BASHOPTS", "GIT_CONFIG_COUNT", "NODE_OPTIONS", "PERL5OPT", "RUBYOPT"].map((name) => [name, "options"] as const),
]);

/** The role of a variable whose value bash or a program runs as code; undefined for ordinary variables. */
export function codeRoleOf(name: string): CodeRole | undefined {
  const role = roles.get(name);
  if (role !== undefined) return role;
  // `BASH_FUNC_f%%=() { …; }` in the environment defines the function `f` in every bash started after.
  if (name.startsWith("BASH_FUNC_")) return "loads";
  // `GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0='…'`: any configuration, commands included.
  if (name.startsWith("GIT_CONFIG_VALUE_")) return "command";
  if (name.startsWith("GIT_CONFIG_KEY_")) return "options";
  if (name.startsWith("SYSTEMD_")) return "options";
  return undefined;
}

// The options that make a program load code from a file or module, per variable.
const loadsCode: Record<string, RegExp> = {
  NODE_OPTIONS: /^(?:-r|--require|--import|--loader|--experimental-loader)(?:=|$)|^-r./,
  PERL5OPT: /^-[MmdI]/,
  RUBYOPT: /^-[rI]/,
};

/** Whether a literal `options` value loads code (`NODE_OPTIONS=--require x.js`, `PERL5OPT=-Mx`, `RUBYOPT=-rx`). */
export function optionsLoadCode(name: string, value: string): boolean {
  const pattern = loadsCode[name];
  return pattern !== undefined && value.split(/\s+/).some((option) => pattern.test(option));
}

/** The inner text of each `$(…)` and backtick of a prompt string, by bracket depth (`$((…))` included: it may hold `$(…)`). */
export function promptSubstitutions(text: string): string[] {
  const found: string[] = [];
  for (let index = 0; index < text.length; index++) {
    if (text[index] === "\\") {
      index++;
    } else if (text[index] === "`") {
      const end = text.indexOf("`", index + 1);
      found.push(text.slice(index + 1, end === -1 ? text.length : end));
      if (end === -1) break;
      index = end;
    } else if (text.startsWith("$(", index)) {
      let depth = 1;
      let end = index + 2;
      for (; end < text.length && depth > 0; end++) depth += text[end] === "(" ? 1 : text[end] === ")" ? -1 : 0;
      found.push(text.slice(index + 2, depth === 0 ? end - 1 : end));
      index = end - 1;
    }
  }
  return found;
}

const setsNames = new Set(["read", "mapfile", "readarray", "printf", "getopts", "for", "select"]);
// `printf -v 'PS4[0]'`: an element of the array counts as the array.
const nameOrElement = /^[A-Za-z_]\w*(?:\[[^\]]*\])?$/;

function baseOf(word: string): string {
  const bracket = word.indexOf("[");
  return bracket === -1 ? word : word.slice(0, bracket);
}

/** The names a builtin sets (`read a b`, `printf -v x`, `mapfile -t a`, `for x in`, `getopts o x`). */
export function namesSetBy(name: string, args: readonly string[]): string[] {
  if (!setsNames.has(name)) return [];
  const names: string[] = [];
  if (name === "read" || name === "mapfile" || name === "readarray") {
    for (const arg of args) if (nameOrElement.test(arg)) names.push(baseOf(arg));
  } else if (name === "printf") {
    const at = args.findIndex((arg) => arg === "-v" || /^-v[A-Za-z_]/.test(arg));
    const target = at === -1 ? undefined : args[at] === "-v" ? args[at + 1] : args[at]!.slice(2);
    if (target !== undefined && nameOrElement.test(target)) names.push(baseOf(target));
  } else {
    const target = name === "getopts" ? args[1] : args[0];
    if (target !== undefined && nameOrElement.test(target)) names.push(baseOf(target));
  }
  return names;
}
