import { escapeControl } from "@toolgate/host/internal";
import { color, count, printLine, safeJson } from "../cli/output.js";
import type { ChangeGroup, ChangedCall } from "./compare-decisions.js";
import { describeDecision } from "./describe-decision.js";
import { printNotReplayed } from "./print-not-replayed.js";
import type { NotReplayed } from "./read-sessions.js";

export interface DiffReport {
  base: string;
  head: string;
  records: number;
  compared: number;
  changed: number;
  notAllowed: number;
  groups: ChangeGroup[];
  notReplayed: NotReplayed[];
}

/** The readable diff: one block per verdict change with its calls, the lines not replayed, then the counts. */
export function printDiff(report: DiffReport): void {
  printLine(`${color.bold("base")} ${escapeControl(report.base)}  ${color.bold("head")} ${escapeControl(report.head)}`);
  printLine();
  for (const group of report.groups) printGroup(group);
  printNotReplayed(report.notReplayed);
  printLine(summary(report));
}

function printGroup({ from, to, count: calls, calls: changes }: ChangeGroup): void {
  const title = from === to ? `${from} → ${to}, decided by another plugin or rule` : `${from} → ${to}`;
  printLine(color.bold(`${title} (${count(calls, "call")})`));
  for (const change of changes) printChange(change);
  printLine();
}

function printChange({ where, call, base, head, allowed }: ChangedCall): void {
  const mark = allowed ? color.dim("  (allowed by --allow-changes)") : "";
  printLine(`  ${escapeControl(where)}  ${escapeControl(call.name)} ${color.dim(safeJson(call.args))}${mark}`);
  printLine(`    base: ${describeDecision(base)}`);
  printLine(`    head: ${describeDecision(head)}`);
}

function summary({ records, compared, changed, notAllowed, notReplayed }: DiffReport): string {
  const allowed = changed - notAllowed;
  const changes = changed === 0 ? "no verdict changed" : `${count(changed, "call")} changed${allowed === 0 ? "" : ` (${allowed} allowed by --allow-changes)`}`;
  const text = `${count(records, "record")}: ${compared} decided under both policies, ${changes}, ${notReplayed.length} not replayed`;
  return notAllowed === 0 ? color.green(text) : color.red(text);
}
