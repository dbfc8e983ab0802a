import { isUnknown } from "../unknown.js";
import type { ReadArguments } from "./options.js";

/** What reading a runner found: code it runs that can be read (a shell script each), and what cannot be read. */
export interface RunnerReading {
  /** Shell scripts the program runs, with how they are reached (`git -c core.pager`). */
  scripts: [script: string, how: string][];
  /** Why what the program runs cannot be known; empty when it can. */
  problems: string[];
}

export function emptyReading(): RunnerReading {
  return { scripts: [], problems: [] };
}

/** A word whose value is only known at run time: the marker, or a `$`/backtick the reader left in place. */
export function isRunTime(word: string): boolean {
  return isUnknown(word) || word.includes("$") || word.includes("`");
}

/**
 * Adds code a program runs: a literal script is read as shell; one only known at run time is a problem.
 * `how` names the program and the option (`tar --to-command`). A `$` left in code is the code's own
 * expansion (`'!f() { echo $1; }; f'`): the nested reading judges it, so only the marker counts here.
 */
export function addCode(reading: RunnerReading, code: string, how: string): void {
  if (isUnknown(code)) reading.problems.push(`${how} runs code only known at run time (${code}), so what it runs cannot be checked`);
  else reading.scripts.push([code, how]);
}

/** Adds a problem: the program runs something (a file, a config) that is not read here. */
export function addUnread(reading: RunnerReading, how: string, what: string): void {
  reading.problems.push(`${how} runs ${what}, which this reader does not read, so what it runs is unknown`);
}

/** The options read by the grammar that run something: `shell` values become scripts, `unknown` ones problems. */
export function readOptionEffects(read: ReadArguments, program: string): RunnerReading {
  const reading: RunnerReading = { scripts: [], problems: [...read.problems] };
  for (const option of read.options) {
    const { runs } = option.spec;
    if (runs === undefined || option.value === undefined) continue;
    const how = `${program} ${option.name}`;
    if (runs === "shell") addCode(reading, option.value, how);
    else if (runs === "argv") addCode(reading, option.value, how);
    else addUnread(reading, how, `${option.value}`);
  }
  return reading;
}

/** An argv as the command line a shell would read, so it can be read as a script. */
export function commandLine(argv: readonly string[]): string {
  return argv.map(quote).join(" ");
}

function quote(part: string): string {
  return /^[\w@%+=:,./-]+$/.test(part) ? part : `'${part.replaceAll("'", `'\\''`)}'`;
}

/**
 * Adds the argv a wrapper runs (`fakeroot rm -rf`). Behind xargs or parallel, the wrapper's words are
 * followed by its input, which the command handed on does not show: what it runs is then unknown.
 */
export function addArgv(reading: RunnerReading, invocation: { wrappers: readonly string[] }, argv: readonly string[], how: string): void {
  if (invocation.wrappers.includes("xargs") || invocation.wrappers.includes("parallel"))
    reading.problems.push(
      `${how} is given its input by ${invocation.wrappers.includes("xargs") ? "xargs" : "parallel"}, so the command it runs (${commandLine(argv)} …) is unknown`,
    );
  else addCode(reading, commandLine(argv), how);
}
