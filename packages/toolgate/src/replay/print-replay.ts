import type { ToolCall } from "@toolgate/plugin-sdk";
import { escapeControl } from "@toolgate/host/internal";
import type { RecordedDecision } from "../cli/read-calls.js";
import { color, count, printLine, safeJson } from "../cli/output.js";
import type { Decision } from "./decide-calls.js";
import { describeDecision } from "./describe-decision.js";
import { printNotReplayed } from "./print-not-replayed.js";
import type { NotReplayed } from "./read-sessions.js";

/** One replayed record: what `replay --json` lists. */
export interface ReplayedCall {
  where: string;
  call: ToolCall;
  recorded: RecordedDecision;
  today: Decision;
  changed: boolean;
}

export interface ReplayReport {
  records: number;
  replayed: number;
  changed: number;
  calls: ReplayedCall[];
  notReplayed: NotReplayed[];
}

/** One line per call that kept its verdict, the recorded and today's verdict for each that did not, then the counts. */
export function printReplay(report: ReplayReport): void {
  for (const replayed of report.calls) printCall(replayed);
  printLine();
  printNotReplayed(report.notReplayed);
  const text = `${count(report.records, "record")}: ${report.replayed} replayed (${report.replayed - report.changed} same, ${report.changed} changed), ${report.notReplayed.length} not replayed`;
  printLine(`${report.changed === 0 ? color.green(text) : color.yellow(text)} ${color.dim("(no tool was run, nothing was recorded)")}`);
}

function printCall({ where, call, recorded, today, changed }: ReplayedCall): void {
  const head = `${escapeControl(where)}  ${escapeControl(call.name)} ${color.dim(safeJson(call.args))}`;
  if (!changed) return printLine(`${color.dim("same   ")}  ${head}  ${describeDecision(today)}`);
  printLine(`${color.yellow("CHANGED")}  ${head}`);
  printLine(`    recorded: ${describeDecision(recorded)}`);
  printLine(`    today:    ${describeDecision(today)}`);
}
