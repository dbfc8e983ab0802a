import { CliError, exitCodes } from "../cli/cli-error.js";
import { readCallFile, type SkippedLine } from "../cli/read-calls.js";
import type { LocatedCall } from "./decide-calls.js";

/** A line that could not be decided again, located for the report. */
export interface NotReplayed {
  where: string;
  reason: SkippedLine["reason"] | "no-record";
  message: string;
}

export interface Sessions {
  /** Every non-blank line read, replayable or not. */
  records: number;
  calls: LocatedCall[];
  notReplayed: NotReplayed[];
}

/**
 * Reads recorded sessions with the reader `toolgate run` uses, file after file in the order given, and
 * keeps every line that could not be decided again with why. Nothing to decide at all is bad input: a
 * report over no call would read as "nothing changed".
 */
export async function readSessions(files: readonly string[]): Promise<Sessions> {
  const sessions: Sessions = { records: 0, calls: [], notReplayed: [] };
  for (const file of files) {
    const { calls, skipped } = await readCallFile(file);
    sessions.records += calls.length + skipped.length;
    // One push per line: a spread passes each as an argument, and a large log overflows the stack.
    for (const line of calls) sessions.calls.push({ file, ...line });
    for (const { line, reason, message } of skipped) sessions.notReplayed.push({ where: `${file}:${line}`, reason, message });
  }
  return sessions;
}

/** The usage error for sessions in which no call can be decided again, naming why. */
export function assertSomethingToDecide(calls: readonly unknown[], files: readonly string[], notReplayed: readonly NotReplayed[]): void {
  if (calls.length > 0) return;
  const digestOnly = notReplayed.some((line) => line.reason === "no-args");
  const hint = digestOnly ? ' (the records carry only a digest of their arguments: record them with decisions: { args: "full" })' : "";
  throw new CliError(`no call in ${files.join(", ")} can be decided again: ${notReplayed.length} line(s) not replayable${hint}`, exitCodes.usage);
}
