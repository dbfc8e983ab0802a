import type { Command } from "commander";
import { exitCodes, type ExitCode } from "../cli-error.js";
import { resolveCwd } from "../open-host.js";
import { printJson } from "../output.js";
import { addProjectOptions, type ProjectOptions } from "../project-options.js";
import type { RecordedDecision } from "../read-calls.js";
import { decideCalls, type Decision, type LocatedCall } from "../../replay/decide-calls.js";
import { hasChanged } from "../../replay/compare-decisions.js";
import { printReplay, type ReplayedCall } from "../../replay/print-replay.js";
import { assertSomethingToDecide, readSessions } from "../../replay/read-sessions.js";
import { rethrowForSide } from "../../replay/side-error.js";

const helpText = `
Reads decisions logs (.toolgate/decisions.jsonl, or any copy of one) and decides each recorded call again
under the project's policy as it is today, through the same gate as every surface, as "toolgate explain"
asks it: no tool runs, no decision is recorded, and plugins get a store of their own in memory (budgets and
rate limits count only the replayed calls, in file order; each call keeps its recorded session).

Only records that carry their arguments can be decided again: record them with decisions: { args: "full" }.
Records with only a digest, tool calls that are not records, and lines that are not valid JSON or not a
valid record are counted and named (file and line) in the report.

Changed: today's verdict (allow, ask, block; modify counts as allow) or its decider (the plugin, rule or hook
named in the record's source) differs from the record's. The verdict compared is the gate's own: an ask a
human answered was recorded with the answer.

Exit codes: 0 the calls were replayed (changed or not: "toolgate diff" is the gate for CI), 1 a plugin
failed to load or the config is invalid, 2 bad usage or bad input (an unreadable file, no call to replay).`;

export function registerReplayCommand(program: Command): void {
  addProjectOptions(program.command("replay"))
    .description("decide the calls of recorded sessions again under today's policy and show what changed (no tool runs)")
    .argument("<decisions.jsonl...>", "decisions logs with arguments recorded")
    .addHelpText("after", helpText)
    .action(async (files: string[], options: ProjectOptions) => {
      process.exitCode = await replay(files, options);
    });
}

async function replay(files: readonly string[], options: ProjectOptions): Promise<ExitCode> {
  const cwd = resolveCwd(options.cwd);
  const sessions = await readSessions(files);
  const recorded = sessions.calls.filter((line): line is LocatedCall & { recorded: RecordedDecision } => line.recorded !== undefined);
  const notReplayed = [
    ...sessions.notReplayed,
    ...sessions.calls
      .filter((line) => line.recorded === undefined)
      .map(({ file, line }) => ({ where: `${file}:${line}`, reason: "no-record" as const, message: `${file}:${line} is a tool call, not a decision record` })),
  ];
  assertSomethingToDecide(recorded, files, notReplayed);
  const today = await decideCalls({ cwd }, recorded).catch(rethrowForSide("today's policy"));
  const calls: ReplayedCall[] = recorded.map(({ file, line, call, recorded: before }, index) => ({
    where: `${file}:${line}`,
    call,
    recorded: before,
    today: today[index]!,
    changed: isChanged(before, today[index]!),
  }));
  const report = { records: sessions.records, replayed: calls.length, changed: calls.filter((call) => call.changed).length, calls, notReplayed };
  if (options.json) printJson(report);
  else printReplay(report);
  return exitCodes.ok;
}

/** A record knows allow, ask and block: an allow that rewrites arguments today is still an allow. */
function isChanged(recorded: RecordedDecision, today: Decision): boolean {
  return hasChanged(recorded, { ...today, verdict: today.verdict === "modify" ? "allow" : today.verdict });
}
