import { escapeControl } from "@toolgate/host/internal";
import { color, count, printLine } from "../cli/output.js";
import type { NotReplayed } from "./read-sessions.js";

const listed = 10;

const because: Record<Exclude<NotReplayed["reason"], "invalid">, string> = {
  "no-args": 'only a digest of the arguments was recorded (record them with decisions: { args: "full" })',
  "no-record": "tool calls, not decision records: no verdict was recorded to compare with",
};

/**
 * The lines that were not decided again, and why: records of one kind grouped per file with their line
 * numbers, each bad line with its own message (the first ten; `--json` has them all).
 */
export function printNotReplayed(lines: readonly NotReplayed[]): void {
  if (lines.length === 0) return;
  printLine(color.yellow(`not replayed (${count(lines.length, "line")}):`));
  for (const reason of ["no-args", "no-record"] as const)
    printGrouped(
      lines.filter((line) => line.reason === reason),
      because[reason],
    );
  const invalid = lines.filter((line) => line.reason === "invalid");
  for (const line of invalid.slice(0, listed)) printLine(`  ${escapeControl(line.message)}`);
  if (invalid.length > listed) printLine(`  … and ${invalid.length - listed} more bad lines (--json lists them all)`);
  printLine();
}

function printGrouped(lines: readonly NotReplayed[], why: string): void {
  const byFile = new Map<string, string[]>();
  for (const { where } of lines) {
    const cut = where.lastIndexOf(":");
    const file = where.slice(0, cut);
    byFile.set(file, [...(byFile.get(file) ?? []), where.slice(cut + 1)]);
  }
  for (const [file, numbers] of byFile) {
    const shown = numbers.slice(0, listed).join(", ") + (numbers.length > listed ? ", …" : "");
    const where = numbers.length === 1 ? `line ${shown}` : `${numbers.length} lines (${shown})`;
    printLine(`  ${escapeControl(file)}, ${where}: ${why}`);
  }
}
