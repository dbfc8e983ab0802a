// In the CLI bundle this import is lazy (scripts/bundle.mjs): the reader loads on the first shell line checked.
import { sharedAnalysis, sharedInterpreterEffects, stdinTexts, type AnalysisEnvironment, type Invocation } from "@toolgate/shell";
import { patchedFiles } from "./patch-files.js";
import { unmodelledChanges } from "./unmodelled-changes.js";
import type { Reach } from "./protected-paths.js";

/** One path a command would create, write, move, link, delete or change the mode of. */
export interface PlannedChange {
  /** As the command spells it, variables the reader knows expanded; may be relative, hold globs or `$X`. */
  readonly raw: string;
  /** The folder a relative `raw` is read from; undefined after a `cd` to a folder only known at run time. */
  readonly cwd: string | undefined;
  readonly reach: Reach;
  /** The command, for the message. */
  readonly command: string;
  /** A folder the command writes files into that it does not name (an archive unpacked, a patch from a file). */
  readonly unnamed?: true;
}

export interface ShellChanges {
  changes: PlannedChange[];
  /** Commands that change something the reader cannot name (`xargs rm`, `$CMD`, a line it cannot read). */
  unknown: string[];
  /** Package-manager commands that install, remove or link these packages (named, or from a path or URL). */
  packages: { command: string; spec: string }[];
}

const writingRedirects = new Set([">", ">>", ">|", "&>", "&>>", "<>", ">&"]);
const removers = new Set(["rm", "rmdir", "unlink", "shred", "srm", "trash", "trash-put"]);
const creators = new Set(["touch", "mkdir", "mkfifo", "mknod", "tee", "truncate", "fallocate"]);
const modeChangers = new Set(["chmod", "chown", "chgrp", "chattr", "setfacl", "chflags"]);
const copiers = new Set(["cp", "mv", "ln", "link", "install", "rsync", "scp", "ditto"]);
const inPlaceEditors = new Set(["sed", "gsed", "perl", "ruby"]);
const packageManagers = new Set(["npm", "pnpm", "yarn", "bun", "cnpm"]);
const packageVerbs = new Set([
  "install",
  "i",
  "in",
  "add",
  "isntall",
  "remove",
  "rm",
  "r",
  "un",
  "uninstall",
  "unlink",
  "update",
  "up",
  "upgrade",
  "link",
  "ln",
  "ci",
]);
// Options of these commands that take the next word as their value.
const valued: Record<string, readonly string[]> = {
  touch: ["-r", "-d", "-t", "--reference", "--date"],
  truncate: ["-s", "-r", "--size", "--reference"],
  fallocate: ["-l", "-o", "--length", "--offset"],
  mkdir: ["-m", "--mode"],
  mknod: ["-m", "--mode"],
  mkfifo: ["-m", "--mode"],
  cp: ["-S", "--suffix", "-t", "--target-directory"],
  mv: ["-S", "--suffix", "-t", "--target-directory"],
  ln: ["-S", "--suffix", "-t", "--target-directory"],
  install: ["-m", "--mode", "-o", "--owner", "-g", "--group", "-S", "--suffix", "-t", "--target-directory"],
  rsync: ["-e", "--rsh", "--exclude", "--include", "--filter", "-f", "--chmod", "--chown", "--backup-dir", "--suffix"],
  sed: ["-e", "--expression", "-f", "--file", "-l", "--line-length"],
  gsed: ["-e", "--expression", "-f", "--file", "-l", "--line-length"],
  setfacl: ["-m", "-x", "-M", "-X", "--modify", "--remove", "--set", "--set-file"],
};

/** What a shell line (or an argv) would change on disk, as far as the shared reader can tell. */
export function shellChanges(line: string, environment: AnalysisEnvironment): ShellChanges {
  const found: ShellChanges = { changes: [], unknown: [], packages: [] };
  let analysis: ReturnType<typeof sharedAnalysis>;
  try {
    analysis = sharedAnalysis(line, environment);
  } catch {
    found.unknown.push(line);
    return found;
  }
  if (analysis.problems.length > 0) found.unknown.push(`${line} (${analysis.problems[0]})`);
  for (const invocation of analysis.unresolved) found.unknown.push(invocation.text);
  for (const invocation of analysis.invocations) changesOf(invocation, found);
  return found;
}

function changesOf(invocation: Invocation, found: ShellChanges): void {
  const add = (raw: string, reach: Reach, unnamed?: true) =>
    found.changes.push({ raw, cwd: invocation.cwd, reach, command: invocation.text, ...(unnamed && { unnamed }) });
  // The reading is frozen: its lists are walked with indexed loops (built-in array methods are several times slower on frozen arrays).
  const redirects = invocation.redirects;
  for (let index = 0; index < redirects.length; index++) {
    const redirect = redirects[index]!;
    if (!writingRedirects.has(redirect.operator)) continue;
    if (redirect.operator === ">&" && /^(\d+|-)$/.test(redirect.target.text)) continue;
    add(redirect.target.text, "exact");
  }
  const { name, args } = invocation;
  // More operands come from stdin or find's results: what they are is only known at run time.
  if (invocation.input !== undefined && writes(name)) found.unknown.push(invocation.text);
  if (removers.has(name)) for (const path of operands(name, args)) add(path, name === "rm" && isRecursive(args) ? "tree" : "exact");
  else if (creators.has(name)) for (const path of operands(name, args)) add(path, "exact");
  else if (modeChangers.has(name)) for (const path of operands(name, args).slice(referenceMode(args) ? 0 : 1)) add(path, isRecursive(args) ? "tree" : "exact");
  else if (copiers.has(name)) copyChanges(invocation, add);
  else if (inPlaceEditors.has(name)) inPlaceChanges(invocation, add);
  else if (name === "dd") {
    for (const arg of args) if (arg.startsWith("of=")) add(arg.slice(3), "exact");
  } else if (name === "git") {
    gitChanges(invocation, add);
    unmodelledChanges(invocation, add);
  } else if (name === "find") findChanges(invocation, add);
  else if (name === "apply_patch" || name === "applypatch") patchChanges(invocation, add);
  else if (packageManagers.has(name)) packageChanges(invocation, found, add);
  else unmodelledChanges(invocation, add);
  // The guard asks the same of the same (shared) command: read once for both.
  const effects = sharedInterpreterEffects(invocation);
  for (const write of effects?.writes ?? []) add(write.target, "exact");
}

/** Codex's `apply_patch` run as a command: the patch comes as its argument or on stdin (a heredoc). */
function patchChanges(invocation: Invocation, add: (raw: string, reach: Reach) => void): void {
  const texts = [...invocation.args, ...stdinTexts(invocation), ...invocation.redirects.map((redirect) => redirect.body ?? "")];
  for (const text of texts) for (const file of patchedFiles(text)) add(file.path, "exact");
}

function writes(name: string): boolean {
  return removers.has(name) || creators.has(name) || modeChangers.has(name) || copiers.has(name) || inPlaceEditors.has(name);
}

/** The words that are not options (a `--` ends options), skipping the values of the command's valued options. */
function operands(name: string, args: readonly string[]): string[] {
  const takesValue = valued[name] ?? [];
  const result: string[] = [];
  let options = true;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (options && arg === "--") options = false;
    else if (options && takesValue.includes(arg)) index++;
    else if (!options || !arg.startsWith("-") || arg === "-") result.push(arg);
  }
  return result;
}

function isRecursive(args: readonly string[]): boolean {
  return someArg(args, (arg) => arg === "--recursive" || (/^-[A-Za-z]+$/.test(arg) && /[rR]/.test(arg)));
}

function referenceMode(args: readonly string[]): boolean {
  return someArg(args, (arg) => arg.startsWith("--reference"));
}

/** `args.some(test)` as a plain loop: a reading's lists are frozen, where the built-in is several times slower. */
function someArg(args: readonly string[], test: (arg: string) => boolean): boolean {
  for (let index = 0; index < args.length; index++) if (test(args[index]!)) return true;
  return false;
}

/** The index of the first argument `test` holds for, or -1 (`findIndex` as a plain loop, for frozen lists). */
function argIndex(args: readonly string[], test: (arg: string) => boolean): number {
  for (let index = 0; index < args.length; index++) if (test(args[index]!)) return index;
  return -1;
}

/**
 * `cp`, `mv`, `ln`, `install`, `rsync`: the destination, and each source's name inside it (the
 * destination may be a folder). `mv` changes its sources too (they are gone), `ln` makes a second way to
 * write them, and a copy of a folder's contents (`src/.`, rsync's `src/`) may land on anything in the destination.
 */
function copyChanges(invocation: Invocation, add: (raw: string, reach: Reach) => void): void {
  const { name, args } = invocation;
  const paths = operands(name, args);
  const target = targetDirectory(args);
  const sources = target === undefined ? paths.slice(0, -1) : paths;
  const destination = target ?? (paths.length >= 2 ? paths[paths.length - 1]! : undefined);
  if (name === "mv") for (const source of sources) add(source, "tree");
  if (name === "ln" || name === "link") for (const source of sources) add(source, "exact");
  if (name === "ln" && paths.length === 1 && target === undefined) add(basenameOf(paths[0]!), "exact");
  if (destination === undefined) return;
  const contents = sources.some((source) => source.endsWith("/.") || (name === "rsync" && source.endsWith("/")));
  const deletes = name === "rsync" && args.some((arg) => arg.startsWith("--delete"));
  add(destination, contents || deletes ? "tree" : "exact");
  for (const source of sources) add(`${destination.replace(/\/+$/, "")}/${basenameOf(localPart(name, source))}`, "exact");
}

/** `scp host:plugins .`, `rsync -a host::mod/plugins .`: a remote source keeps its remote name here (`*` for a whole home). */
function localPart(name: string, source: string): string {
  if ((name !== "scp" && name !== "rsync") || !/^[^/]*:/.test(source)) return source;
  return source.slice(source.indexOf(":") + 1).replace(/^:/, "") || "*";
}

function targetDirectory(args: readonly string[]): string | undefined {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === "-t" || arg === "--target-directory") return args[index + 1];
    if (arg.startsWith("--target-directory=")) return arg.slice("--target-directory=".length);
    if (/^-[A-Za-z]*t$/.test(arg) && arg.length > 2 && !arg.startsWith("--")) return args[index + 1];
  }
  return undefined;
}

function basenameOf(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  return trimmed.slice(trimmed.lastIndexOf("/") + 1) || trimmed;
}

/** `sed -i`, `perl -i`/`-pi`, `ruby -i`: the files after the script. */
function inPlaceChanges(invocation: Invocation, add: (raw: string, reach: Reach) => void): void {
  const { name, args } = invocation;
  const inPlace = someArg(args, (arg) => /^--in-place/.test(arg) || /^-[A-Za-z]*i/.test(arg));
  if (!inPlace) return;
  const paths = operands(name, args);
  const scriptGiven = someArg(args, (arg) => /^(-[A-Za-z]*[ef]|--expression|--file)/.test(arg) && !/^-[A-Za-z]*i/.test(arg));
  const files = name === "sed" || name === "gsed" ? (scriptGiven ? paths : paths.slice(1)) : paths;
  for (const path of files) add(path, "exact");
}

const gitPathCommands = new Set(["rm", "mv", "checkout", "restore", "clean", "stash", "apply", "am"]);

/**
 * git subcommands that change named files in the work tree (`git checkout -- toolgate.config.ts`,
 * `git rm -r plugins`, `git clean -fdx`). Commands that move the whole tree to another commit
 * (`git checkout <branch>`, `git reset --hard`, `git pull`) are not read: what they bring is committed, reviewable history.
 */
function gitChanges(invocation: Invocation, add: (raw: string, reach: Reach) => void): void {
  const args = invocation.args;
  const index = argIndex(args, (arg) => !arg.startsWith("-"));
  const subcommand = args[index];
  if (subcommand === undefined || !gitPathCommands.has(subcommand)) return;
  const rest = args.slice(index + 1);
  if (subcommand === "clean") {
    if (rest.some((arg) => arg === "-n" || arg === "--dry-run" || (/^-[A-Za-z]+$/.test(arg) && arg.includes("n")))) return;
    const paths = operands("git", rest);
    for (const path of paths.length === 0 ? ["."] : paths) add(path, "tree");
    return;
  }
  if (subcommand === "apply" || subcommand === "am") {
    // A patch from a file is not read; from stdin it is, when the reader knows it.
    if (rest.some((arg) => arg === "--check" || arg === "--stat" || arg === "--numstat")) return;
    for (const text of stdinTexts(invocation)) for (const path of patchedFiles(text)) add(path.path, "exact");
    for (const path of operands("git", rest)) add(path, "exact");
    return;
  }
  if (subcommand === "stash" && !rest.includes("--")) return;
  for (const path of operands("git", rest)) add(path, "tree");
}

const findActions = /^-(delete|exec|execdir|ok|okdir|fprint|fprint0|fprintf|fls)$/;

/**
 * `find … -delete` / `-exec …`: everything under the start folders, unless a `-name` test keeps it to
 * names: then only the names it matches (the `name:` prefix tells the protection to match the pattern
 * against protected names rather than paths).
 */
function findChanges(invocation: Invocation, add: (raw: string, reach: Reach) => void): void {
  const { args } = invocation;
  if (!someArg(args, (arg) => findActions.test(arg))) return;
  const firstTest = argIndex(args, (arg) => arg.startsWith("-") || arg === "(" || arg === "!");
  const starts: string[] = [];
  for (let index = 0; index < (firstTest === -1 ? args.length : firstTest); index++) if (args[index] !== "") starts.push(args[index]!);
  const names: string[] = [];
  let otherTests = false;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === "-name" || arg === "-iname") names.push(args[++index] ?? "*");
    else if (/^-(path|ipath|wholename|iwholename|regex|iregex|lname|ilname|inum|samefile|links)$/.test(arg)) otherTests = true;
  }
  for (const start of starts.length === 0 ? ["."] : starts) {
    if (names.length === 0 || otherTests) add(start, "tree");
    else for (const name of names) add(`${start.replace(/\/+$/, "")}/**/${name}`, "tree");
  }
}

/** `npm install toolgate@…`, `pnpm add ../fork`, `npm uninstall <plugin>`, `npm pkg set …`. */
function packageChanges(invocation: Invocation, found: ShellChanges, add: (raw: string, reach: Reach) => void): void {
  const { args } = invocation;
  const words: string[] = [];
  for (let index = 0; index < args.length; index++) if (!args[index]!.startsWith("-")) words.push(args[index]!);
  const verb = words[0];
  if (verb === "pkg" && (words[1] === "set" || words[1] === "delete" || words[1] === "fix")) {
    add("package.json", "exact");
    return;
  }
  if (verb === undefined || !packageVerbs.has(verb)) return;
  for (const spec of words.slice(1)) found.packages.push({ command: invocation.text, spec });
  if (verb === "link" || verb === "ln") found.packages.push({ command: invocation.text, spec: words[1] ?? "." });
}
