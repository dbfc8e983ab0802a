import type { Invocation } from "../invocations.js";
import { normalizePath } from "../normalize-path.js";
import { configKeyEffect } from "./git-config.js";
import { unread } from "./options.js";
import { addCode, addUnread, commandLine, isRunTime, type RunnerReading } from "./reading.js";

/**
 * git runs code through its configuration (`-c core.pager=…`, `alias.x=!…`), its environment
 * (`GIT_EXEC_PATH`), the repository it is pointed at (hooks and config of `-C elsewhere`) and a few
 * options (`grep -O`, `rebase -x`, `difftool -x`, `submodule foreach`, `bisect run`, `filter-branch`,
 * `--upload-pack`). The global options are all read; the subcommands' own options are read where they run
 * code, and every other option of a subcommand is data to git. The project's own repository (its hooks and
 * config) is trusted as the project's build files are; another repository's is unknown.
 */

// git.c reads its global options itself: exact names, `-c`/`-C` only as separate words.
const globalFlags = new Set([
  "-p",
  "--paginate",
  "-P",
  "--no-pager",
  "--no-replace-objects",
  "--bare",
  "--literal-pathspecs",
  "--no-literal-pathspecs",
  "--glob-pathspecs",
  "--noglob-pathspecs",
  "--icase-pathspecs",
  "--no-optional-locks",
  "--no-lazy-fetch",
  "--no-advice",
  "--html-path",
  "--man-path",
  "--info-path",
  "--exec-path",
  "-v",
  "--version",
  "-h",
  "--help",
]);
const globalValued = new Set([
  "-c",
  "-C",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--config-env",
  "--super-prefix",
  "--list-cmds",
  "--attr-source",
  "--shallow-file",
]);
const folderOptions = new Set(["-C", "--git-dir", "--work-tree"]);

/** A subcommand option that runs code: its long name, short letter, and whether its value is only attached. */
interface RunningOption {
  long: string;
  short?: string;
  optional?: boolean;
  /** The value is a program and its words (`bisect run`), or a shell command (the default). */
  how?: "shell" | "unknown";
}

const runningOptions: Record<string, { options: RunningOption[]; valuedLetters: string }> = {
  grep: { options: [{ long: "open-files-in-pager", short: "O", optional: true }], valuedLetters: "efABCm" },
  rebase: { options: [{ long: "exec", short: "x" }], valuedLetters: "sX" },
  difftool: { options: [{ long: "extcmd", short: "x" }], valuedLetters: "t" },
  clone: {
    options: [
      { long: "upload-pack", short: "u" },
      { long: "template", how: "unknown" },
    ],
    valuedLetters: "objc",
  },
  fetch: { options: [{ long: "upload-pack" }], valuedLetters: "j" },
  pull: { options: [{ long: "upload-pack" }], valuedLetters: "sXj" },
  "ls-remote": { options: [{ long: "upload-pack" }], valuedLetters: "" },
  archive: { options: [{ long: "exec" }], valuedLetters: "o" },
  push: {
    options: [{ long: "receive-pack" }, { long: "exec" }],
    valuedLetters: "o",
  },
  "send-email": {
    options: [{ long: "to-cmd" }, { long: "cc-cmd" }, { long: "header-cmd" }, { long: "sendmail-cmd" }, { long: "smtp-server", how: "unknown" }],
    valuedLetters: "",
  },
  "filter-branch": {
    options: ["setup", "env-filter", "tree-filter", "index-filter", "parent-filter", "msg-filter", "commit-filter", "tag-name-filter"].map((long) => ({
      long,
    })),
    valuedLetters: "d",
  },
};

export function readGit(invocation: Invocation, reading: RunnerReading): void {
  readEnvironment(invocation, reading);
  readGitArguments(invocation.args, invocation, reading, 0);
}

function readGitArguments(args: readonly string[], invocation: Invocation, reading: RunnerReading, depth: number): void {
  const aliases = new Map<string, string>();
  let index = 0;
  for (; index < args.length; index++) {
    const arg = args[index]!;
    if (!arg.startsWith("-")) break;
    // git.c rejects `--` and an attached `-Cdir`/`-ckey=value` ("unknown option", exit 129: nothing runs).
    // Another git may take them, so they are read as a separator and as `-C dir`/`-c key=value`: never less.
    if (arg === "--") continue;
    const attached = /^-[Cc]./.test(arg);
    const equals = arg.indexOf("=");
    const name = attached ? arg.slice(0, 2) : arg.startsWith("--") && equals !== -1 ? arg.slice(0, equals) : arg;
    if (globalFlags.has(arg)) continue;
    if (!globalValued.has(name) || (name !== arg && !attached && (name === "-c" || name === "-C"))) {
      // `--exec-path=/tmp/x`: git runs its subcommands from there.
      if (name === "--exec-path") addUnread(reading, "git --exec-path", `its subcommands from ${arg.slice(equals + 1)}`);
      else reading.problems.push(unread("git", arg));
      continue;
    }
    const value = attached ? arg.slice(2) : name === arg ? args[++index] : arg.slice(equals + 1);
    if (value === undefined) {
      reading.problems.push(`git: the option ${name} needs a value`);
      break;
    }
    if (name === "-c") readConfigSetting(value, reading, "git -c", aliases);
    else if (name === "--config-env") readConfigEnv(value, reading);
    else if (folderOptions.has(name)) readRepositoryFolder(value, invocation, reading, `git ${name}`);
  }
  const subcommand = args[index];
  if (subcommand === undefined) return;
  const rest = args.slice(index + 1);
  const alias = aliases.get(subcommand.toLowerCase());
  // A `!` alias is a shell command: the reader already runs it (see git-alias.ts); a plain one is more git words.
  if (alias !== undefined && !alias.startsWith("!")) {
    if (depth < 4) readGitArguments([...alias.split(/\s+/).filter(Boolean), ...rest], invocation, reading, depth + 1);
    return;
  }
  readSubcommand(subcommand, rest, reading);
}

/** `-c key=value` (or `--config key=value` of clone): what the key makes git run. */
function readConfigSetting(setting: string, reading: RunnerReading, how: string, aliases?: Map<string, string>): void {
  const equals = setting.indexOf("=");
  const key = equals === -1 ? setting : setting.slice(0, equals);
  const value = equals === -1 ? "true" : setting.slice(equals + 1);
  if (isRunTime(key)) return void reading.problems.push(`${how} sets a configuration key only known at run time (${key})`);
  if (aliases !== undefined && /^alias\./i.test(key)) aliases.set(key.slice("alias.".length).toLowerCase(), value);
  const effect = configKeyEffect(key, value);
  // A `!` alias runs only when called, and then the reader's own alias reading runs it with its arguments.
  if (effect.kind === "code" && !/^alias\./i.test(key)) addCode(reading, effect.code, `${how} ${key}`);
  else if (effect.kind === "unknown") addUnread(reading, `${how} ${key}`, "code or files through that setting");
}

/** `--config-env=key=ENVVAR`: the value comes from the environment, so a key that runs code is unknown. */
function readConfigEnv(value: string, reading: RunnerReading): void {
  const equals = value.indexOf("=");
  const key = equals === -1 ? value : value.slice(0, equals);
  if (configKeyEffect(key, "x").kind !== "inert") addUnread(reading, `git --config-env ${key}`, "a command taken from an environment variable");
}

/**
 * `git -C dir`, `--git-dir`, `--work-tree`: git then runs that repository's hooks and config. A folder
 * inside the working folder is the project's own; another one, or one only known at run time, is unknown.
 */
function readRepositoryFolder(folder: string, invocation: Invocation, reading: RunnerReading, how: string): void {
  if (isRunTime(folder)) return void addUnread(reading, how, `the hooks and config of a repository only known at run time (${folder})`);
  const { cwd } = invocation;
  const absolute = folder.startsWith("/") ? normalizePath(folder) : cwd === undefined ? undefined : normalizePath(`${cwd}/${folder}`);
  const inside = absolute !== undefined && cwd !== undefined && (absolute === cwd || absolute.startsWith(cwd === "/" ? "/" : `${cwd}/`));
  if (!inside || folder.startsWith("~")) addUnread(reading, how, `the hooks and config of the repository at ${folder}, outside the working folder`);
}

const environmentCode = new Set(["GIT_PAGER", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_SSH", "GIT_ASKPASS", "GIT_EXTERNAL_DIFF", "GIT_PROXY_COMMAND"]);
const environmentUnknown = new Set([
  "GIT_EXEC_PATH",
  "GIT_CONFIG_PARAMETERS",
  "GIT_CONFIG_COUNT",
  "GIT_CONFIG",
  "GIT_CONFIG_GLOBAL",
  "GIT_CONFIG_SYSTEM",
  "GIT_TEMPLATE_DIR",
  "GIT_COMMON_DIR",
]);

/** `GIT_PAGER='…' git log`, `GIT_DIR=elsewhere git status`, `GIT_CONFIG_COUNT=1 …`: git reads its environment too. */
function readEnvironment(invocation: Invocation, reading: RunnerReading): void {
  for (const assignment of invocation.assignments) {
    const equals = assignment.indexOf("=");
    const name = assignment.slice(0, equals).replace(/\+$/, "");
    const value = assignment.slice(equals + 1);
    if (environmentCode.has(name)) {
      if (value !== "") addCode(reading, value, name);
    } else if (environmentUnknown.has(name) || name.startsWith("GIT_CONFIG_KEY_")) {
      if (value !== "/dev/null") addUnread(reading, name, "configuration or programs this reader does not see");
    } else if (name === "GIT_DIR" || name === "GIT_WORK_TREE") readRepositoryFolder(value, invocation, reading, name);
  }
}

function readSubcommand(subcommand: string, args: readonly string[], reading: RunnerReading): void {
  const how = `git ${subcommand}`;
  if (subcommand === "submodule" && args.includes("foreach")) {
    const after = args
      .slice(args.indexOf("foreach") + 1)
      .filter((arg, index, all) => !(arg === "--recursive" || (arg === "--" && index === all.indexOf("--"))));
    if (after.length > 0) addCode(reading, after.join(" "), "git submodule foreach");
    return;
  }
  if (subcommand === "bisect" && args[0] === "run") {
    if (args.length > 1) addCode(reading, commandLine(args.slice(1)), "git bisect run");
    return;
  }
  if (subcommand === "config") return readConfigWrite(args, reading);
  if (subcommand === "clone") {
    for (let index = 0; index < args.length; index++) {
      const arg = args[index]!;
      if (arg === "-c" || arg === "--config") readConfigSetting(args[index + 1] ?? "", reading, `git clone ${arg}`);
      else if (arg.startsWith("--config=")) readConfigSetting(arg.slice("--config=".length), reading, "git clone --config");
      else if (/^-c./.test(arg)) readConfigSetting(arg.slice(2), reading, "git clone -c");
    }
  }
  const table = runningOptions[subcommand];
  if (table === undefined) return;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === "--") break;
    if (arg.startsWith("--")) {
      const equals = arg.indexOf("=");
      const name = arg.slice(2, equals === -1 ? undefined : equals);
      // parse-options takes any unambiguous prefix: one that starts an option that runs code is read as that option.
      const option = name.length > 0 ? table.options.find((candidate) => candidate.long.startsWith(name)) : undefined;
      if (option === undefined) continue;
      const value = equals !== -1 ? arg.slice(equals + 1) : option.optional ? undefined : args[++index];
      addOption(reading, option, value, `${how} --${option.long}`);
    } else if (arg.startsWith("-") && arg.length > 1) {
      for (let at = 1; at < arg.length; at++) {
        const letter = arg[at]!;
        const option = table.options.find((candidate) => candidate.short === letter);
        if (option !== undefined) {
          const attached = arg.slice(at + 1);
          const value = attached !== "" ? attached : option.optional ? undefined : args[++index];
          addOption(reading, option, value, `${how} -${letter}`);
          break;
        }
        if (table.valuedLetters.includes(letter)) {
          if (at === arg.length - 1) index++;
          break;
        }
      }
    }
  }
}

function addOption(reading: RunnerReading, option: RunningOption, value: string | undefined, how: string): void {
  if (value === undefined) {
    if (!option.optional) reading.problems.push(`${how} needs a value`);
    return;
  }
  if (option.how === "unknown") addUnread(reading, how, value);
  else addCode(reading, value, how);
}

const configReads = new Set([
  "--get",
  "--get-all",
  "--get-regexp",
  "--get-urlmatch",
  "-l",
  "--list",
  "--unset",
  "--unset-all",
  "--remove-section",
  "--rename-section",
  "--get-color",
  "--get-colorbool",
  "-e",
  "--edit",
  "--show-origin",
  "--show-scope",
  "--name-only",
]);
const configValued = new Set(["-f", "--file", "--blob", "--type", "--default", "--comment", "--value", "--url"]);
const configSubcommands = new Set(["get", "list", "unset", "rename-section", "remove-section", "edit"]);

/** `git config key value`, `git config set key value`, `git config --add key value`: a write of a key that runs code persists it. */
function readConfigWrite(args: readonly string[], reading: RunnerReading): void {
  const operands: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (configReads.has(arg)) return;
    if (configValued.has(arg)) index++;
    else if (!arg.startsWith("-")) operands.push(arg);
  }
  if (configSubcommands.has(operands[0] ?? "")) return;
  const [key, value] = operands[0] === "set" ? operands.slice(1) : operands;
  if (key === undefined || value === undefined) return;
  if (isRunTime(key)) return void reading.problems.push(`git config writes a key only known at run time (${key})`);
  const effect = configKeyEffect(key, value);
  if (effect.kind === "code") addCode(reading, effect.code, `git config ${key}`);
  else if (effect.kind === "unknown") addUnread(reading, `git config ${key}`, "code or files through that setting, later");
}
