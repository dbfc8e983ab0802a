import type { Invocation } from "../invocations.js";
import { letters, names, readArguments, type Grammar, type OptionSpec } from "./options.js";
import { addUnread, readOptionEffects, type RunnerReading } from "./reading.js";

/**
 * GNU parallel runs its command template once per input (`parallel rm -rf {} ::: build dist`); the reader
 * reads each job as a script (`parallel.ts`, `unwrap.ts`). Here its options are read: only the ones listed
 * below, which change neither what runs nor where (`-j 4`, `-k`, `--dry-run`, `--tag`, how the input is
 * split). Arguments from files (`:::: list`) are unknown; any other option (`--pipe`, `-S`/`--sshlogin`, `--shebang`, `--plus`, `-N`, `-X`, `--arg-sep`,
 * a `--profile`) is unknown, as is Perl code in a `{= … =}` replacement string and the variables through
 * which parallel takes options or its shell.
 */

const unknownValue: OptionSpec = { arity: "required", runs: "unknown" };

// Getopt::Long with bundling and require_order: letters cluster, long names abbreviate, the template ends the options.
const parallelGrammar: Grammar = {
  program: "parallel",
  abbreviate: true,
  stopAtOperand: true,
  short: { ...letters("0kqurtvhV", "jPIdECa") },
  long: {
    ...names(
      "keep-order dry-run verbose quote ungroup group line-buffer lb tag eta progress bar null no-run-if-empty no-notice will-cite help version",
      "jobs max-procs delay retries timeout halt memfree load nice tagstring delimiter eof colsep arg-file header trim termseq tmpdir tempdir",
    ),
    // They write files where they say (a job log, result files): a file the next command may run.
    joblog: unknownValue,
    results: unknownValue,
    res: unknownValue,
  },
};

// The variables parallel reads options (`PARALLEL`), its shell or its remote shell from.
const parallelVariables = /^PARALLEL(?:_SHELL|_SSH|_ENV|_HOME)?=/;

/** Reads the options of parallel, run by name or as a wrapper of the command it starts. */
export function readParallel(invocation: Invocation, reading: RunnerReading): void {
  const args = parallelArguments(invocation);
  if (args === undefined) return;
  const read = readArguments(args, parallelGrammar);
  const found = readOptionEffects(read, "parallel");
  reading.problems.push(...found.problems);
  for (const word of args) {
    if (word.includes("{=")) addUnread(reading, "parallel {= … =}", `Perl code (${word})`);
    if (/^::::\+?$/.test(word)) addUnread(reading, `parallel ${word}`, "jobs with arguments read from files");
  }
  if (invocation.assignments.length > 0)
    for (const assignment of invocation.assignments)
      if (parallelVariables.test(assignment)) addUnread(reading, "parallel", `options or a shell from ${assignment.slice(0, assignment.indexOf("="))}`);
}

/** The words after `parallel`: its own arguments, or those after the word `parallel` among the wrappers. */
function parallelArguments(invocation: Invocation): readonly string[] | undefined {
  if (invocation.name === "parallel") return invocation.args;
  if (!invocation.wrappers.includes("parallel")) return undefined;
  const argv = (invocation as { argv?: readonly string[] }).argv ?? [];
  const at = argv.findIndex((word) => word === "parallel" || word.endsWith("/parallel"));
  return at === -1 ? undefined : argv.slice(at + 1);
}
