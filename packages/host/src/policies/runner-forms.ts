/**
 * The forms in which a program known to run code takes that code from its options or its script: git's
 * `-c`, `grep -O`, `--upload-pack`; tar's `--checkpoint-action`, `--to-command`, `-I`; sed's `e`; awk's
 * `system` and pipes; vim's `-c`; rsync's `-e`; ssh's `-o`. An allow rule never vouches for a command in
 * such a form, whatever its glob says: what the code runs is not something the rule named.
 *
 * A rules-side stopgap, deliberately broad: `@toolgate/shell` is gaining a table of these programs that
 * reports their code as nested commands (then matched like any other) and their unread options as
 * problems. Until then this keeps allow rules from lifting them; afterwards it only duplicates that report.
 */
import type { Invocation } from "@toolgate/shell";

type FormCheck = (args: readonly string[]) => string | undefined;

/** Why `invocation` runs code an allow rule cannot vouch for, or undefined when it is in a plain form. */
export function codeCapableForm(invocation: Pick<Invocation, "name" | "args">): string | undefined {
  // `flock f -c 'rm -rf ~'` read as a command named `-c`: an option taken for a command means the form was not read.
  if (invocation.name.startsWith("-")) return `"${invocation.name}" is an option read as a command name: the command it belongs to was not read`;
  const check = checks.get(invocation.name.toLowerCase());
  const reason = check?.(invocation.args);
  return reason === undefined ? undefined : `${invocation.name} ${reason}`;
}

/** `--name[=value]` is `option` or may abbreviate it (getopt_long and git take any unambiguous prefix). */
function abbreviates(arg: string, option: string): boolean {
  const name = arg.split("=", 1)[0]!;
  return name.length >= 3 && option.startsWith(name);
}

function longOption(args: readonly string[], options: readonly string[], exact: readonly string[] = []): string | undefined {
  for (const arg of args) {
    if (!arg.startsWith("--") || exact.includes(arg.split("=", 1)[0]!)) continue;
    const option = options.find((candidate) => abbreviates(arg, candidate));
    if (option !== undefined) return `with ${option}, which runs a command`;
  }
  return undefined;
}

/** A short option letter, alone or in a cluster (`-tvI`), before `--`. */
function hasShortOption(args: readonly string[], letters: string): boolean {
  for (const arg of args) {
    if (arg === "--") return false;
    if (/^-[A-Za-z0-9]/.test(arg) && [...arg.slice(1)].some((char) => letters.includes(char))) return true;
  }
  return false;
}

// `git -c key=value` with a key that holds no command; any other key may (core.pager, alias.*, core.sshCommand, …).
const plainGitConfig =
  /^(color\.[\w.-]+|core\.quotepath|core\.autocrlf|core\.abbrev|user\.name|user\.email|advice\.[\w.-]+|init\.defaultbranch|commit\.gpgsign|tag\.gpgsign|log\.showsignature|diff\.noprefix)=/i;
const gitLongOptions = [
  "--config-env",
  "--exec-path",
  "--open-files-in-pager",
  "--upload-pack",
  "--receive-pack",
  "--exec",
  "--extcmd",
  "--sendmail-cmd",
  "--to-cmd",
  "--cc-cmd",
  "--header-cmd",
];

function gitForm(args: readonly string[]): string | undefined {
  let subcommand: string | undefined;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (subcommand === undefined) {
      if (arg === "-c" || (arg.startsWith("-c") && arg.length > 2)) {
        const config = arg === "-c" ? (args[++index] ?? "") : arg.slice(2);
        if (!plainGitConfig.test(config)) return `with -c ${config}, a setting that may hold a command`;
        continue;
      }
      if (!arg.startsWith("-")) subcommand = arg.toLowerCase();
      else if (arg === "-C" || arg === "--git-dir" || arg === "--work-tree" || arg === "--namespace") index++;
      continue;
    }
    if (subcommand === "grep" && /^-[A-Za-z]*O/.test(arg)) return "grep with -O, which runs a pager command";
    if ((subcommand === "rebase" || subcommand === "difftool") && /^-[A-Za-z]*x/.test(arg)) return `${subcommand} with -x, which runs a command`;
    if (subcommand === "clone" && /^-[A-Za-z]*u/.test(arg)) return "clone with -u, which runs a command";
  }
  if (subcommand === "bisect" && args.includes("run")) return "bisect run, which runs a command";
  if (subcommand === "submodule" && args.includes("foreach")) return "submodule foreach, which runs a command";
  if (subcommand === "filter-branch") return "filter-branch, which runs its filters as commands";
  if (subcommand === "config") return gitConfigForm(args.slice(args.findIndex((arg) => arg.toLowerCase() === "config") + 1));
  return longOption(args, gitLongOptions);
}

/** `git config key value` (and `config set`, `--add`, `--replace-all`): a setting that may hold a command, written for later. */
function gitConfigForm(args: readonly string[]): string | undefined {
  const words = args.filter((arg) => !arg.startsWith("-"));
  const [key, value] = words[0] === "set" ? words.slice(1) : words;
  if (key === undefined || value === undefined || plainGitConfig.test(`${key}=`)) return undefined;
  return `config ${key}, a setting that may hold a command git runs later`;
}

/** A program that runs a command given in one of these options. */
function optionRuns(letters: string, longs: readonly string[]): FormCheck {
  return (args) => (hasShortOption(args, letters) ? `with -${[...letters].join(" or -")}, which runs a command` : longOption(args, longs));
}

const tarLongOptions = [
  "--checkpoint-action",
  "--to-command",
  "--use-compress-program",
  "--info-script",
  "--new-volume-script",
  "--rsh-command",
  "--rmt-command",
];

function tarForm(args: readonly string[]): string | undefined {
  // Traditional `tar xfI …`: the first word is a cluster of letters without the dash.
  const first = args[0];
  if (first !== undefined && /^[A-Za-z]+$/.test(first) && /[IF]/.test(first)) return "with I or F, which run a command";
  if (hasShortOption(args, "IF")) return "with -I or -F, which run a command";
  return longOption(args, tarLongOptions, ["--checkpoint"]);
}

function sedForm(args: readonly string[]): string | undefined {
  const scripts: string[] = [];
  let positional = false;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === "--") break;
    if (arg.startsWith("--")) {
      const [name = "", value] = arg.split(/=(.*)/s);
      if (name.length >= 3 && "--expression".startsWith(name)) scripts.push(value ?? args[++index] ?? "");
      else if (name.length >= 3 && "--file".startsWith(name)) return "with a script file, which may run commands";
      else if (name === "--line-length" && value === undefined) index++;
      continue;
    }
    if (!arg.startsWith("-") || arg === "-") continue;
    for (let at = 1; at < arg.length; at++) {
      const letter = arg[at]!;
      if (letter === "e") {
        scripts.push(at + 1 < arg.length ? arg.slice(at + 1) : (args[++index] ?? ""));
        break;
      }
      if (letter === "f") return "with a script file, which may run commands";
      if (letter === "i") break;
      if (letter === "l") {
        if (at + 1 === arg.length) index++;
        break;
      }
    }
  }
  if (scripts.length === 0) {
    positional = true;
    const script = args.find((arg) => !arg.startsWith("-"));
    if (script !== undefined) scripts.push(script);
  }
  return scripts.some(sedRunsCode) ? `with a script that may run commands (${positional ? "" : "-e "}e or s///e)` : undefined;
}

/**
 * Whether a sed script holds the `e` command or an `s` command with the `e` flag (GNU sed runs both as
 * shell commands). Read just enough to tell: addresses, `s`/`y` and their delimited parts, text arguments.
 * What it cannot follow counts as running code.
 */
export function sedRunsCode(script: string): boolean {
  let at = 0;
  const skipDelimited = (delimiter: string): boolean => {
    while (at < script.length && script[at] !== delimiter) at += script[at] === "\\" ? 2 : 1;
    if (at >= script.length) return false;
    at++;
    return true;
  };
  while (at < script.length) {
    const char = script[at]!;
    if (/[\s;{}!,0-9$~+]/.test(char)) {
      at++;
      continue;
    }
    if (char === "/") {
      at++;
      if (!skipDelimited("/")) return true;
      continue;
    }
    if (char === "\\") {
      const delimiter = script[at + 1];
      at += 2;
      if (delimiter === undefined || !skipDelimited(delimiter)) return true;
      continue;
    }
    if (char === "e") return true;
    if (char === "s" || char === "y") {
      const delimiter = script[at + 1];
      if (delimiter === undefined || delimiter === "\n" || delimiter === "\\") return true;
      at += 2;
      if (!skipDelimited(delimiter) || !skipDelimited(delimiter)) return true;
      if (char === "y") continue;
      const flags = /^[A-Za-z0-9]*/.exec(script.slice(at))![0];
      if (flags.includes("e")) return true;
      at += flags.length;
      // `s/a/b/w file`: the file name runs to the end of the line.
      if (flags.includes("w")) at = lineEnd(script, at);
      continue;
    }
    if (char === "#" || "aicrRwWbtTvlqQL:".includes(char)) {
      // Text, a file name or a label: to the end of the line (`;` ends a label or number only in GNU sed, so read on to be safe).
      at = lineEnd(script, at + 1);
      continue;
    }
    if ("pPdDnNgGhHxz=F".includes(char)) {
      at++;
      continue;
    }
    return true;
  }
  return false;
}

function lineEnd(text: string, from: number): number {
  const end = text.indexOf("\n", from);
  return end === -1 ? text.length : end + 1;
}

function awkForm(args: readonly string[]): string | undefined {
  if (
    hasShortOption(
      args.filter((arg) => arg !== "-F" && !arg.startsWith("-F")),
      "fliE",
    ) ||
    longOption(args, ["--file", "--load", "--include", "--exec", "--source"])
  ) {
    return "with a program file or library, which may run commands";
  }
  let index = 0;
  while (index < args.length && args[index]!.startsWith("-") && args[index] !== "--") index += args[index] === "-F" || args[index] === "-v" ? 2 : 1;
  if (args[index] === "--") index++;
  const program = args[index] ?? "";
  return /system|\||@load|@include|getline/.test(program) ? "with a program that may run commands (system, pipes, getline)" : undefined;
}

function vimForm(args: readonly string[]): string | undefined {
  return args.some((arg) => arg.startsWith("+") || /^-[A-Za-z]*[cSsu]/.test(arg) || arg.startsWith("--cmd"))
    ? "with commands to run (-c, +…, --cmd, -S)"
    : undefined;
}

function rsyncForm(args: readonly string[]): string | undefined {
  return hasShortOption(
    args.filter((arg) => !arg.startsWith("--")),
    "e",
  )
    ? "with -e, which runs a command"
    : longOption(args, ["--rsh", "--rsync-path"]);
}

function sshForm(args: readonly string[]): string | undefined {
  return hasShortOption(args, "oFS") ? "with -o, -F or -S, which may run a command" : undefined;
}

function zipForm(args: readonly string[]): string | undefined {
  return args.some((arg) => arg === "-TT" || /^-[A-Za-z]*TT/.test(arg)) ? "with -TT, which runs a command" : longOption(args, ["--unzip-command"]);
}

function enableForm(args: readonly string[]): string | undefined {
  return hasShortOption(args, "f") ? "with -f, which loads a builtin from a shared library" : undefined;
}

const checks = new Map<string, FormCheck>();
checks.set("enable", enableForm);
checks.set("flock", optionRuns("c", ["--command"]));
checks.set("script", optionRuns("c", ["--command"]));
checks.set("man", optionRuns("PH", ["--pager", "--html"]));
checks.set("gdb", optionRuns("x", ["--eval-command", "--command", "--init-eval-command", "--init-command", "-ex", "-iex"]));
checks.set("emacs", optionRuns("lf", ["--eval", "--load", "--funcall", "--execute", "-eval", "-load", "-funcall"]));
checks.set("expect", optionRuns("cf", []));
checks.set("osascript", optionRuns("e", []));
// They read the commands to run from their input, which is not read here.
for (const name of ["at", "batch"]) checks.set(name, () => "reads commands to run from its input");
for (const name of ["git"]) checks.set(name, gitForm);
for (const name of ["tar", "gtar", "bsdtar"]) checks.set(name, tarForm);
for (const name of ["sed", "gsed"]) checks.set(name, sedForm);
for (const name of ["awk", "gawk", "mawk", "nawk"]) checks.set(name, awkForm);
for (const name of ["vim", "vi", "nvim", "ex", "view", "vimdiff"]) checks.set(name, vimForm);
checks.set("rsync", rsyncForm);
for (const name of ["ssh", "scp", "sftp"]) checks.set(name, sshForm);
checks.set("zip", zipForm);
