import { escapeControl } from "@toolgate/host/internal";
import { color, count, printLine, safeJson } from "../cli/output.js";
import { describeSource } from "./compare-verdict.js";
import type { CaseResult } from "./run-fixtures.js";

/** The readable report: a line per passing case, the whole story of each failing one, then the totals. */
export function printReport(results: readonly CaseResult[], failedPlugins: readonly { plugin: string; error: string }[]): void {
  for (const result of results) {
    if (result.pass) printLine(`${color.green("pass")} ${escapeControl(result.where)}`);
    else printFailure(result);
  }
  for (const { plugin, error } of failedPlugins) printLine(`${color.red("FAILED TO LOAD")} ${color.bold(escapeControl(plugin))}: ${escapeControl(error)}`);
  const failed = results.filter((result) => !result.pass).length;
  const totals = `${count(results.length, "case")}: ${results.length - failed} passed, ${failed} failed`;
  printLine();
  printLine(`${failed === 0 ? color.green(totals) : color.red(totals)} ${color.dim("(no tool was run, nothing was spent or recorded)")}`);
}

function printFailure({ where, call, agent, expected, got, mismatches }: CaseResult): void {
  const from = [agent === undefined ? "" : `agent ${agent}`, call.kind === undefined ? "" : `kind ${call.kind}`].filter(Boolean).join(", ");
  printLine(`${color.red("FAIL")} ${color.bold(escapeControl(where))}`);
  printLine(`  call:     ${escapeControl(call.name)}${from === "" ? "" : color.dim(` (${from})`)} ${color.dim(safeJson(call.args))}`);
  const expectedBy = expected.by === undefined ? "" : ` by ${escapeControl(expected.by)}`;
  const expectedMessage = expected.message === undefined ? "" : `, message ${escapeControl(expected.message)}`;
  const expectedShadow = expected.shadow === undefined ? "" : `, ${expected.shadow} with shadows enforced`;
  printLine(`  expected: ${expected.verdict}${expectedBy}${expectedMessage}${expectedShadow}`);
  printLine(`  got:      ${got.verdict} by ${escapeControl(describeSource(got.source))}`);
  if (got.shadow !== undefined) printLine(`  shadow:   ${got.shadow.verdict} by ${escapeControl(describeSource(got.shadow.source))}`);
  if (got.message !== undefined) printLine(`  message:  ${escapeControl(got.message)}`);
  if (got.verdict === "modify") printLine(`  args:     ${safeJson(got.args)}`);
  for (const mismatch of mismatches) printLine(`  ${color.red("✗")} ${escapeControl(mismatch)}`);
}
