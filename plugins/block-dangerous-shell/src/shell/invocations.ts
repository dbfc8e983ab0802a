import { parseScript, type Command, type Redirect, type Script, type Word } from "./parse.js";

/** One command that would run, seen through wrappers (`sudo`, `env`, `xargs`, …). */
export interface Invocation {
  /** The command's name without its folder (`rm` for `/bin/rm`); empty for a bare assignment. */
  name: string;
  /** The arguments after the name, quotes removed. */
  args: string[];
  /** The wrappers it runs under, outermost first: `["sudo", "env"]` for `sudo env A=1 rm …`. */
  wrappers: string[];
  redirects: Redirect[];
  /** Every command piped into this one, from earlier in its pipeline. */
  upstream: Invocation[];
  /** Commands this one runs from its arguments: `$(…)` and `<(…)` in them, `sh -c '…'`, `eval …`. */
  nested: Invocation[];
}

export const shells = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "busybox"]);

// Words that run the rest of the command line as a command, each with the options that take a value
// (`sudo -u root …`), so the command itself can be found after them.
const wrapperOptionsWithValue: Record<string, readonly string[]> = {
  sudo: ["-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T", "-R"],
  doas: ["-u", "-C"],
  env: ["-u", "-C", "-S"],
  nice: ["-n"],
  ionice: ["-c", "-n", "-p"],
  xargs: ["-I", "-n", "-P", "-L", "-s", "-d", "-a", "-E"],
  stdbuf: ["-i", "-o", "-e"],
  timeout: ["-s", "-k"],
  nohup: [],
  exec: ["-a"],
  command: [],
  builtin: [],
  time: [],
  then: [],
  else: [],
  elif: [],
  do: [],
  if: [],
  while: [],
  until: [],
  "!": [],
};
const maxDepth = 8;

/** What a command line would run. */
export interface Analysis {
  /** The command line and every script nested in it (`sh -c '…'`, `$(…)`, heredocs to a shell, …). */
  scripts: string[];
  /** Every command it would run, nested ones included, in source order. */
  invocations: Invocation[];
}

export function analyze(command: string): Analysis {
  const analysis: Analysis = { scripts: [], invocations: [] };
  collectSource(command, analysis, 0);
  return analysis;
}

function collectSource(source: string, analysis: Analysis, depth: number): Invocation[] {
  analysis.scripts.push(source);
  return collectScript(parseScript(source), [], analysis, depth);
}

function collectScript(script: Script, upstream: Invocation[], analysis: Analysis, depth: number): Invocation[] {
  const found: Invocation[] = [];
  for (const pipeline of script) {
    const before: Invocation[] = [...upstream];
    for (const command of pipeline) {
      const own = collectCommand(command, [...before], analysis, depth);
      found.push(...own);
      before.push(...own);
    }
  }
  return found;
}

function collectCommand(command: Command, upstream: Invocation[], analysis: Analysis, depth: number): Invocation[] {
  if (command.type === "group") {
    const inner = collectScript(command.script, upstream, analysis, depth);
    for (const invocation of inner) invocation.redirects.push(...command.redirects);
    return inner;
  }
  const invocation = unwrap(command.words, command.redirects, upstream);
  analysis.invocations.push(invocation);
  if (depth < maxDepth) {
    const substitutions = [...command.words, ...command.redirects.map((redirect) => redirect.target)].flatMap((word) => word.substitutions);
    const scripts = [...substitutions, ...scriptsRunBy(invocation)];
    for (const script of scripts) invocation.nested.push(...collectSource(script, analysis, depth + 1));
  }
  return [invocation, ...invocation.nested];
}

function unwrap(words: Word[], redirects: Redirect[], upstream: Invocation[]): Invocation {
  const texts = words.map((word) => word.text);
  const wrappers: string[] = [];
  let index = 0;
  while (index < texts.length) {
    const word = texts[index]!;
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) {
      index++;
      continue;
    }
    const name = baseName(word);
    const valued = wrapperOptionsWithValue[name];
    if (!valued || (name === "command" && /^-[vV]$/.test(texts[index + 1] ?? ""))) break; // `command -v x` only looks x up
    wrappers.push(name);
    index++;
    if (name === "timeout") index = skipOptions(texts, index, valued) + 1; // and the duration
    else index = skipOptions(texts, index, valued);
  }
  const name = index < texts.length ? baseName(texts[index]!) : "";
  return { name, args: texts.slice(index + 1), wrappers, redirects: [...redirects], upstream, nested: [] };
}

/** Skips `-x`, `--long`, `-x value` and `A=1` words; returns the index of the first other word. */
function skipOptions(texts: readonly string[], start: number, valued: readonly string[]): number {
  let index = start;
  while (index < texts.length) {
    const word = texts[index]!;
    if (word === "--") return index + 1;
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) index++;
    else if (word.startsWith("-") && word.length > 1) index += valued.includes(word) ? 2 : 1;
    else return index;
  }
  return index;
}

/** Command text an invocation hands to a shell: `sh -c '…'`, `eval …`, `bash <<< '…'`, a heredoc to a shell. */
function scriptsRunBy(invocation: Invocation): string[] {
  if (invocation.name === "eval") return [invocation.args.join(" ")];
  if (!shells.has(invocation.name)) return [];
  const scripts: string[] = [];
  const flagIndex = invocation.args.findIndex(isCommandFlag);
  if (flagIndex !== -1) {
    const script = invocation.args.slice(flagIndex + 1).find((arg) => !arg.startsWith("-"));
    if (script !== undefined) scripts.push(script);
  }
  for (const redirect of invocation.redirects) {
    if (redirect.operator === "<<<") scripts.push(redirect.target.text);
    if (redirect.body !== undefined) scripts.push(redirect.body);
  }
  return scripts;
}

/** `-c`, or a cluster that holds it (`-lc`, `-ec`). */
export function isCommandFlag(arg: string): boolean {
  return /^-[A-Za-z]*c[A-Za-z]*$/.test(arg);
}

export function baseName(word: string): string {
  const slash = word.lastIndexOf("/");
  return slash === -1 || slash === word.length - 1 ? word : word.slice(slash + 1);
}
