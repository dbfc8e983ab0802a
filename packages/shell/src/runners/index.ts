import { shells, type Analysis, type Invocation } from "../invocations.js";
import { readAwk } from "./awk.js";
import { readBwrap } from "./bwrap.js";
import { readCommandArguments } from "./command-arguments.js";
import { elsewhereRunners } from "./elsewhere.js";
import { readEnvironmentCode } from "./environment.js";
import { execWrapperRunners } from "./exec-wrappers.js";
import { readGit } from "./git.js";
import { readParallel } from "./parallel.js";
import { otherRunners } from "./programs.js";
import { addUnread, emptyReading, type RunnerReading } from "./reading.js";
import { readSed } from "./sed.js";
import { readTar } from "./tar.js";
import { readWrappers, wrapperNames } from "./wrappers.js";
import { notPlainCommands } from "../unwrap.js";

export type { RunnerReading } from "./reading.js";

type Reader = (invocation: Invocation, reading: RunnerReading) => void;

/**
 * Programs known to be able to run something (a command in an option, a script, a config): each is
 * read only in the forms listed for it. The names are the ones `unwrap` gives (`gawk`, not `/usr/bin/gawk`).
 */
const runners = byName([
  ["git", readGit],
  ["tar", readTar],
  ["gtar", readTar],
  ["bsdtar", readTar],
  ["sed", readSed],
  ["gsed", readSed],
  ...["awk", "gawk", "mawk", "nawk"].map((name): [string, Reader] => [name, readAwk]),
  ...otherRunners,
  ...execWrapperRunners,
  ...elsewhereRunners,
  ["bwrap", readBwrap],
]);

/** The readers by program; a program listed twice (`podman unshare` and `podman run`) is read by each. */
function byName(entries: readonly [string, Reader][]): Map<string, Reader> {
  const map = new Map<string, Reader>();
  for (const [name, reader] of entries) {
    const earlier = map.get(name);
    map.set(
      name,
      earlier === undefined
        ? reader
        : (invocation, reading) => {
            earlier(invocation, reading);
            reader(invocation, reading);
          },
    );
  }
  return map;
}

/** The names of the programs this reader treats as runners. */
export const runnerNames: ReadonlySet<string> = new Set(runners.keys());

// Programs the reader models besides the runners: the wrappers `unwrap` and `readWrappers` follow.
const modelledNames: ReadonlySet<string> = new Set([...runnerNames, ...wrapperNames, ...notPlainCommands]);

/**
 * What a program runs beyond itself through its options, its script, its wrappers or its environment:
 * shell scripts to read as nested commands, and problems where what it runs cannot be known (an option
 * not read here, a script from a file, code only known at run time). Empty for programs that run nothing.
 */
export function runnerReading(invocation: Invocation): RunnerReading {
  // Worked out on each call, not kept: a cache keyed by invocations would hold every decision's objects through minor collections.
  const reading = emptyReading();
  readInto(invocation, reading);
  return reading;
}

/** Adds to `reading` what `runnerReading` finds for the invocation. */
function readInto(invocation: Invocation, reading: RunnerReading): void {
  readWrappers(invocation, reading);
  readParallel(invocation, reading);
  if (invocation.assignments.length > 0) readEnvironmentCode(invocation, reading);
  const reader = runners.get(invocation.name);
  if (reader !== undefined) {
    const withOptions = withEnvironmentOptions(invocation, reading);
    reader(withOptions, reading);
    readGlobOptions(withOptions, reading);
  } else readCommandArguments(invocation, reading, modelledNames, shells);
  readGitControlWrites(invocation, reading);
}

/**
 * Whether an invocation runs anything beyond itself that a rule naming only it would not vouch for: a
 * script or command its options, script or environment hand to a shell (`sed '1e …'`, `git -c core.pager=…`,
 * `tar --checkpoint-action=exec=…`), an option of a runner that is not read here, or any command nested in
 * it (`sh -c`, `find -exec`, `$(…)`, a one-liner's `os.system`). An allow rule for `sed -n*` must not lift
 * `sed -n '1e rm -rf ~'`: when this is true, the rule has to vouch for the nested commands too, or not lift.
 */
export function runsBeyondItself(invocation: Invocation): boolean {
  const reading = runnerReading(invocation);
  return reading.scripts.length > 0 || reading.problems.length > 0 || invocation.nested.length > 0;
}

// Variables a program reads more options from, before its own (`TAR_OPTIONS='--to-command=…' tar x`).
const optionVariables = new Map([
  ["tar", "TAR_OPTIONS"],
  ["gtar", "TAR_OPTIONS"],
  ["zip", "ZIPOPT"],
  ["less", "LESS"],
  ["man", "MANOPT"],
  ["make", "MAKEFLAGS"],
  ["gmake", "MAKEFLAGS"],
]);

/** The invocation with the options its variable holds put before its own, as the program reads them. */
function withEnvironmentOptions(invocation: Invocation, reading: RunnerReading): Invocation {
  const variable = optionVariables.get(invocation.name);
  if (variable === undefined || invocation.assignments.length === 0) return invocation;
  const assignment = invocation.assignments.findLast((candidate) => candidate.startsWith(`${variable}=`));
  if (assignment === undefined) return invocation;
  const value = assignment.slice(variable.length + 1);
  // The programs split these with their own quoting rules (and less runs `+` commands from it): not followed here.
  if (/['"\\]/.test(value) || (variable === "LESS" && value.includes("+"))) {
    addUnread(reading, variable, `options for ${invocation.name} (${value})`);
    return invocation;
  }
  const words = value.split(/\s+/).filter(Boolean);
  // MAKEFLAGS and LESS may hold letters without a dash (`MAKEFLAGS=ks`).
  const options = words.map((word, index) => (index === 0 && /^[A-Za-z]+$/.test(word) && variable !== "TAR_OPTIONS" ? `-${word}` : word));
  return Object.assign(Object.create(Object.getPrototypeOf(invocation) as object) as Invocation, invocation, { args: [...options, ...invocation.args] });
}

// Runners whose options run code and that are handed file names: a glob there may expand to an option
// (a file named `--checkpoint-action=exec=sh x.sh` in the folder), the classic wildcard injection.
const globSensitive = new Set(["tar", "gtar", "bsdtar", "zip", "rsync", "scp"]);

/** `tar cf a.tar *`: an operand that starts with a glob, before `--`, may expand to options. */
function readGlobOptions(invocation: Invocation, reading: RunnerReading): void {
  if (!globSensitive.has(invocation.name)) return;
  for (const arg of invocation.args) {
    if (arg === "--") return;
    if (/^[*?[]/.test(arg)) {
      reading.problems.push(`${invocation.name} is given ${arg}, which may expand to names that ${invocation.name} reads as options; write ./${arg} instead`);
      return;
    }
  }
}

// git's hooks and configuration: a line that writes them runs what it wrote at the next git command.
const gitControl = /(^|\/)\.git\/(hooks(\/|$)|config$)/;
const copiers = new Set(["cp", "mv", "ln", "install", "tee", "rsync", "dd"]);

function readGitControlWrites(invocation: Invocation, reading: RunnerReading): void {
  const { redirects } = invocation;
  for (let index = 0; index < redirects.length; index++) {
    const redirect = redirects[index]!;
    if (/>/.test(redirect.operator) && gitControl.test(redirect.target.text))
      addUnread(reading, `a write to ${redirect.target.text}`, "code git runs later (hooks, config)");
  }
  if (!copiers.has(invocation.name)) return;
  for (const arg of invocation.args) {
    const path = arg.startsWith("of=") ? arg.slice(3) : arg;
    if (gitControl.test(path)) addUnread(reading, `${invocation.name} ${path}`, "code git runs later (hooks, config)");
  }
}

const maxRunnerDepth = 8;

/**
 * The post-pass of `analyze`: every invocation (nested ones included, as they are added) is read as a
 * runner; its problems join the analysis and each script it runs is read as a nested script through
 * `readNested`, which adds what it runs to `invocation.nested` and to the analysis.
 */
export function readRunners(analysis: Analysis, readNested: (invocation: Invocation, script: string, how: string) => void): void {
  // One reading for every invocation, emptied before each: most find nothing, and none is kept past its turn.
  const reading = emptyReading();
  const { problems, scripts } = reading;
  for (let index = 0; index < analysis.invocations.length; index++) {
    const invocation = analysis.invocations[index]!;
    problems.length = 0;
    scripts.length = 0;
    readInto(invocation, reading);
    for (let at = 0; at < problems.length; at++) if (!analysis.problems.includes(problems[at]!)) analysis.problems.push(problems[at]!);
    if (scripts.length === 0) continue;
    if (invocation.via.length >= maxRunnerDepth) {
      analysis.problems.push(`commands run through programs are nested more than ${maxRunnerDepth} levels deep`);
      continue;
    }
    for (const [script, how] of scripts) readNested(invocation, script, how);
  }
}
