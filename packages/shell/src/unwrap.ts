/**
 * Finds the command a line really runs behind wrappers: `sudo -u root env A=1 nice -n 5 timeout 10 rm …`
 * runs `rm`. Each wrapper lists the options that take a value, so the command can be found after them.
 */

import { parallelJobs, type ParallelJobs } from "./parallel.js";

const parallelValued = [
  "-j",
  "--jobs",
  "-S",
  "--sshlogin",
  "-I",
  "--delay",
  "--joblog",
  "--results",
  "--tmpdir",
  "--retries",
  "--timeout",
  "-a",
  "--arg-file",
  "-C",
  "--colsep",
  "-N",
  "-n",
  "--max-args",
  "-E",
  "-d",
  "--delimiter",
];

const wrapperOptionsWithValue = new Map<string, readonly string[]>(
  Object.entries({
    sudo: ["-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T", "-R", "--user", "--group", "--host", "--prompt", "--chdir"],
    doas: ["-u", "-C"],
    run0: ["-u", "--user", "-g", "--group", "-D", "--chdir"],
    pkexec: ["--user"],
    env: ["-u", "-C", "-P", "--unset", "--chdir"],
    nice: ["-n", "--adjustment"],
    ionice: ["-c", "-n", "-p", "--class", "--classdata"],
    nohup: [],
    setsid: [],
    timeout: ["-s", "-k", "--signal", "--kill-after"],
    stdbuf: ["-i", "-o", "-e"],
    time: ["-f", "-o", "--format", "--output"],
    command: [],
    builtin: [],
    exec: ["-a"],
    // `-i`, `-e`, `-l` and `--replace` take their value only attached (`-i{}`), so they are flags here.
    xargs: [
      "-I",
      "-J",
      "-n",
      "-P",
      "-L",
      "-s",
      "-d",
      "-a",
      "-E",
      "-R",
      "-S",
      "--max-args",
      "--max-procs",
      "--delimiter",
      "--arg-file",
      "--max-lines",
      "--process-slot-var",
      "--max-chars",
      "--eof",
    ],
    parallel: parallelValued,
    chrt: ["-p"],
    taskset: [],
    unbuffer: [],
    caffeinate: ["-t", "-w"],
    flock: ["-w", "-E", "--timeout", "--conflict-exit-code"],
    chroot: ["--userspec", "--groups"],
    runuser: ["-u", "-g", "-G", "--user", "--group"],
    strace: ["-e", "-o", "-p", "-s", "-u"],
    ltrace: ["-e", "-o", "-p", "-s", "-u"],
    firejail: [],
    "git-lfs": [],
    dotenv: ["-e", "-v", "-c"],
    npx: ["-p", "--package", "-c", "--call"],
    bunx: ["-p", "--package"],
    pnpx: [],
    // Shell keywords that precede a command.
    // biome-ignore lint/suspicious/noThenProperty: a table of shell words, never awaited
    then: [],
    else: [],
    elif: [],
    do: [],
    if: [],
    while: [],
    until: [],
    "!": [],
    "{": [],
  }),
);

/** Wrappers that take positional words before the command: the number of words to skip. */
const positionalWords = new Map<string, number>(Object.entries({ timeout: 1, chroot: 1, flock: 1, chrt: 1, taskset: 1 }));

/** `uv run x`, `poetry run x`, `bundle exec x`, `pnpm exec x`: a tool, a subcommand, then the command. */
const runSubcommands = new Map<string, readonly string[]>(
  Object.entries({
    uv: ["run"],
    poetry: ["run"],
    pipenv: ["run"],
    pdm: ["run"],
    hatch: ["run"],
    rye: ["run"],
    conda: ["run"],
    bundle: ["exec"],
    pnpm: ["exec", "dlx"],
    npm: ["exec", "x"],
    yarn: ["exec", "dlx"],
    bun: ["x"],
    mise: ["exec", "x"],
    asdf: ["exec"],
    nix: ["run", "shell"],
  }),
);

const none: readonly string[] = Object.freeze([]);

// Names that may stand before another command: one lookup tells that most commands are plain.
export const notPlainCommands: ReadonlySet<string> = new Set([...wrapperOptionsWithValue.keys(), ...runSubcommands.keys(), "busybox", "toybox"]);

export const inputWrappers = new Set(["xargs", "parallel"]);

export interface Unwrapped {
  /** The command's name without its folder (`rm` for `/bin/rm` or `\rm`); empty for a bare assignment. */
  name: string;
  /** The words after the name. */
  args: string[];
  /** Wrappers, outermost first: `["sudo", "env"]` for `sudo env A=1 rm …`. */
  wrappers: readonly string[];
  /** `NAME=value` words before the command. */
  assignments: readonly string[];
  /** The text xargs or parallel replaces with each input (`-I FOO`, `-i`, `--replace`; `{}` for parallel). */
  placeholder?: string;
  /** The words after the last input wrapper and its options (`sudo --` in `xargs sudo --`): the command its input is added to. */
  inputCommand?: readonly string[];
  /** xargs reads its input from a file (`-a paths.txt`), not from standard input. */
  inputFromFile?: true;
  /** The folder a wrapper runs the command in (`env -C dir`, `env --chdir=dir`, `sudo -D dir`). */
  chdir?: string;
}

export function unwrap(words: readonly string[]): Unwrapped {
  // Most commands start with their own name: no wrapper, no assignment, nothing to skip.
  const first = words[0];
  if (first !== undefined && !first.includes("=")) {
    const name = baseName(first);
    if (!notPlainCommands.has(name)) {
      return { name, args: words.slice(1), wrappers: none, assignments: none };
    }
  }
  let texts = splitEnvString(words);
  const wrappers: string[] = [];
  const assignments: string[] = [];
  let placeholder: string | undefined;
  let inputFromFile = false;
  let inputCommand: string[] | undefined;
  let chdir: string | undefined;
  let index = 0;
  while (index < texts.length) {
    const word = texts[index]!;
    // `1A=2 git …` is not an assignment to bash (it runs a command named `1A=2`), but read as one it shows what was meant.
    if (word.includes("=") && (isAssignment(word) || (looksLikeAssignment.test(word) && index + 1 < texts.length))) {
      assignments.push(word);
      index++;
      continue;
    }
    const name = baseName(word);
    const next = texts[index + 1] ?? "";
    if (name === "busybox" || name === "toybox") {
      wrappers.push(name);
      index++;
      continue;
    }
    const subcommands = runSubcommands.get(name);
    if (subcommands?.includes(next)) {
      const tool = `${name} ${next}`;
      wrappers.push(tool);
      const end = skipOptions(texts, index + 2, runOptionsWithValue.get(name) ?? none);
      // `npm exec -c 'rm -rf /'`, `pnpm exec -c …`, `yarn exec 'a && b'`: a shell script, read as `sh -c` would.
      const script = scriptOf(tool, texts.slice(index + 2, end), texts.slice(end));
      if (script !== undefined) texts = [...texts.slice(0, end), "sh", "-c", script];
      index = end;
      continue;
    }
    const valued = wrapperOptionsWithValue.get(name);
    if (!valued || (name === "command" && /^-[vV]+$/.test(next)) || isHelpFor(name, next)) break;
    const end = skipOptions(texts, index + 1, valued, assignments);
    if (name === "npx") {
      const script = scriptOf(name, texts.slice(index + 1, end), texts.slice(end));
      if (script !== undefined) texts = [...texts.slice(0, end), "sh", "-c", script];
    }
    // `parallel rm -rf {} ::: build`: with its inputs on the line, parallel is the command (its jobs are read as scripts).
    if (name === "parallel" && parallelJobs(texts.slice(end), texts.slice(index + 1, end)) !== undefined) break;
    wrappers.push(name);
    if (inputWrappers.has(name)) {
      placeholder = placeholderOf(name, texts.slice(index + 1, end)) ?? placeholder;
      inputCommand = texts.slice(end);
    }
    if (name === "xargs" && texts.slice(index + 1, end).some((option) => /^(-a|--arg-file)/.test(option))) inputFromFile = true;
    const chdirFlag = chdirFlags.get(name);
    if (chdirFlag !== undefined) chdir = chdirOf(texts.slice(index + 1, end), chdirFlag) ?? chdir;
    index = end + (positionalWords.get(name) ?? 0);
  }
  const name = index < texts.length ? baseName(texts[index]!) : "";
  const unwrapped: Unwrapped = { name, args: texts.slice(index + 1), wrappers, assignments };
  if (placeholder !== undefined) unwrapped.placeholder = placeholder;
  if (inputFromFile) unwrapped.inputFromFile = true;
  if (inputCommand !== undefined) unwrapped.inputCommand = inputCommand;
  if (chdir !== undefined) unwrapped.chdir = chdir;
  return unwrapped;
}

/** The options of a run subcommand that take a value (`npm exec --package x`). */
const runOptionsWithValue = new Map<string, readonly string[]>([
  ["npm", ["-c", "--call", "-p", "--package", "-w", "--workspace"]],
  ["pnpm", ["--filter", "-F", "-C", "--dir"]],
]);

/**
 * The shell script a package runner runs: `npx -c '…'`, `npm exec --call='…'` (the option's value);
 * `pnpm exec -c a b`, `pnpm exec --shell-mode …` (the words, joined); `yarn exec 'a && b'` (yarn runs its
 * words in a shell: read so when they hold shell syntax).
 */
function scriptOf(tool: string, options: readonly string[], rest: readonly string[]): string | undefined {
  if (tool === "npx" || tool === "npm exec" || tool === "npm x") {
    let script: string | undefined;
    for (let at = 0; at < options.length; at++) {
      const option = options[at]!;
      if (option === "-c" || option === "--call") script = options[at + 1] ?? script;
      else if (option.startsWith("--call=")) script = option.slice("--call=".length);
      else if (/^-c./.test(option)) script = option.slice(option[2] === "=" ? 3 : 2);
    }
    return script === undefined ? undefined : [script, ...rest].join(" ");
  }
  if (rest.length === 0) return undefined;
  if ((tool === "pnpm exec" || tool === "pnpm dlx") && options.some((option) => option === "-c" || option === "--shell-mode")) return rest.join(" ");
  if (tool === "yarn exec" && /[\s;&|<>$`()]/.test(rest[0]!)) return rest.join(" ");
  return undefined;
}

/** `parallel [options] command… ::: a b`: its jobs and the placeholder, from the words after `parallel`. */
export function parallelJobsOf(args: readonly string[]): { jobs: ParallelJobs; placeholder: string | undefined } | undefined {
  const end = skipOptions(args, 0, parallelValued);
  const jobs = parallelJobs(args.slice(end), args.slice(0, end));
  return jobs === undefined ? undefined : { jobs, placeholder: placeholderOf("parallel", args.slice(0, end)) };
}

/** The short flag each wrapper takes for the folder to run in (`--chdir` for all of them). */
const chdirFlags = new Map([
  ["env", "-C"],
  ["sudo", "-D"],
  ["run0", "-D"],
]);

/** The folder of `-C dir`, `-Cdir`, `--chdir dir` or `--chdir=dir` among a wrapper's options (`-D` for sudo). */
function chdirOf(options: readonly string[], flag: string): string | undefined {
  let found: string | undefined;
  for (let index = 0; index < options.length; index++) {
    const option = options[index]!;
    if (option === flag || option === "--chdir") found = options[index + 1] ?? found;
    else if (option.startsWith("--chdir=")) found = option.slice("--chdir=".length);
    else if (option.startsWith(flag) && option.length > 2) found = option.slice(2);
  }
  return found;
}

/** What xargs (`-I FOO`, `-IFOO`, `-i`, `--replace[=FOO]`) or parallel (`{}`, or `-I FOO`) replaces with each input. */
function placeholderOf(name: string, options: readonly string[]): string | undefined {
  let found = name === "parallel" ? "{}" : undefined;
  for (let index = 0; index < options.length; index++) {
    const option = options[index]!;
    if (option === "-I" || (name === "xargs" && option === "-J")) found = options[index + 1] ?? found;
    else if (/^-I./.test(option)) found = option.slice(2);
    else if (name === "xargs" && (option === "-i" || option === "--replace")) found = "{}";
    else if (name === "xargs" && /^-i./.test(option)) found = option.slice(2);
    else if (name === "xargs" && option.startsWith("--replace=")) found = option.slice("--replace=".length);
  }
  return found === "" ? undefined : found;
}

// `sudo -l`, `sudo -v`, `time -p` are fine, but `sudo --help` or `env --version` run nothing.
function isHelpFor(name: string, next: string): boolean {
  return name !== "!" && (next === "--help" || next === "--version");
}

/**
 * `env -S 'rm -rf /'` splits its string into words: do the same, so the command is seen. Every spelling:
 * `-S '…'`, `-S'…'`, `-vS '…'`, `--split-string '…'`, `--split-string='…'` (and its abbreviations).
 */
function splitEnvString(words: readonly string[]): readonly string[] {
  if (!words.some(mayBeSplitString)) return words;
  const env = words.findIndex((word) => baseName(word) === "env");
  if (env === -1) return words;
  for (let index = env + 1; index < words.length; index++) {
    const word = words[index]!;
    if (!word.startsWith("-") || word === "--") break;
    let text: string | undefined;
    let used = 1;
    const long = /^--sp(?:l(?:i(?:t(?:-(?:s(?:t(?:r(?:i(?:ng?)?)?)?)?)?)?)?)?)?(=|$)/.exec(word);
    if (long) {
      text = long[1] === "=" ? word.slice(word.indexOf("=") + 1) : words[index + 1];
      used = long[1] === "=" ? 1 : 2;
    } else if (/^-[iv0]*S/.test(word) && !word.startsWith("--")) {
      const rest = word.slice(word.indexOf("S") + 1);
      text = rest !== "" ? rest : words[index + 1];
      used = rest !== "" ? 1 : 2;
    } else continue;
    if (text === undefined) return words;
    return [...words.slice(0, index), ...text.split(/\s+/).filter(Boolean), ...words.slice(index + used)];
  }
  return words;
}

function mayBeSplitString(word: string): boolean {
  return word.startsWith("--sp") || (word.startsWith("-") && !word.startsWith("--") && word.includes("S"));
}

/**
 * Skips `-x`, `--long`, `-x value`, `--long=value` and `A=1` words; returns the index of the first other word.
 * The `A=1` words a wrapper gives the command (`env A=1 cmd`, `sudo A=1 cmd`) are added to `assignments`.
 */
function skipOptions(texts: readonly string[], start: number, valued: readonly string[], assignments?: string[]): number {
  let index = start;
  while (index < texts.length) {
    const word = texts[index]!;
    if (word === "--") return index + 1;
    if (isAssignment(word)) assignments?.push(texts[index++]!);
    else if (word.startsWith("-") && (word.length > 1 || baseName(texts[start - 1] ?? "") === "env")) index += valued.includes(word) ? 2 : 1;
    else return index;
  }
  return index;
}

const looksLikeAssignment = /^[^=/]*=/;

export function isAssignment(word: string): boolean {
  return word.includes("=") && /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(word);
}

/** `rm` for `/bin/rm`, `\rm` (the lexer already dropped the backslash) and `"rm"`. */
function baseName(word: string): string {
  if (isPlainName(word)) return word;
  const slash = Math.max(word.lastIndexOf("/"), word.lastIndexOf("\\"));
  const base = slash === -1 || slash === word.length - 1 ? word : word.slice(slash + 1);
  // `GIT.EXE` on Windows, `Rm` on a case-insensitive file system: the same programs.
  return /[A-Z]/.test(base) || /\.exe$/i.test(base) ? base.toLowerCase().replace(/\.exe$/, "") : base;
}

/** The common case, `/^[a-z0-9_+-]{1,32}$/`: a lower-case name with no folder and no `.exe` to take off. */
function isPlainName(word: string): boolean {
  if (word.length === 0 || word.length > 32) return false;
  for (let index = 0; index < word.length; index++) {
    const code = word.charCodeAt(index);
    // a-z, 0-9, `_`, `+`, `-`
    if (!((code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 95 || code === 43 || code === 45)) return false;
  }
  return true;
}
