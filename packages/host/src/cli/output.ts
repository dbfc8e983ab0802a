import { isAbsolute, relative } from "node:path";
import pc from "picocolors";
import { escapeControl, escapeJsonText } from "../escape-control.js";

export type Colors = ReturnType<typeof pc.createColors>;

/**
 * Colours for one stream: on only when it is a terminal and NO_COLOR is unset. picocolors' own
 * detection also turns colour on for `CI` or `FORCE_COLOR` when output is piped, which would put escape
 * codes into files and other programs' input, so the CLI decides and hands picocolors the answer.
 */
function colorsFor(stream: NodeJS.WriteStream): Colors {
  const enabled = stream.isTTY === true && !process.env.NO_COLOR && process.env.TERM !== "dumb";
  return pc.createColors(enabled);
}

/** Colours for stdout. */
export const color = colorsFor(process.stdout);
const errorColor = colorsFor(process.stderr);

/**
 * One line on stdout, as given: the line may hold our own colour codes, so text from plugins, calls or
 * files goes through `escapeControl` (or `safeJson`) before it is put into it.
 */
export function printLine(text = ""): void {
  process.stdout.write(`${text}\n`);
}

/** JSON text that is safe on a terminal: C1 controls and bidi overrides written as `\u` escapes too. */
export function safeJson(value: unknown, indent?: number): string {
  return escapeJsonText(JSON.stringify(value, null, indent) ?? "null");
}

/** One JSON document (pretty) on stdout, for `list --json` and `check --json`. */
export function printJson(value: unknown): void {
  process.stdout.write(`${safeJson(value, 2)}\n`);
}

/** One JSON value per line (JSONL) on stdout, for `run --json`. */
export function printJsonLine(value: unknown): void {
  process.stdout.write(`${safeJson(value)}\n`);
}

/** One line on stderr: `error: <message>`, control characters in the message escaped. */
export function printError(message: string): void {
  process.stderr.write(`${errorColor.red("error")}: ${escapeControl(message)}\n`);
}

/** One line on stderr as it is, control characters escaped (stdout may belong to a protocol). */
export function printNote(message: string): void {
  process.stderr.write(`${escapeControl(message)}\n`);
}

export function printWarning(message: string): void {
  process.stderr.write(`${errorColor.yellow("warning")}: ${escapeControl(message)}\n`);
}

/** A path relative to `cwd` when it lies inside it, absolute otherwise. */
export function displayPath(path: string, cwd: string): string {
  const inside = relative(cwd, path);
  return inside === "" || inside.startsWith("..") || isAbsolute(inside) ? path : inside;
}

/** `1 plugin`, `2 plugins`. */
export function count(amount: number, noun: string): string {
  return `${amount} ${noun}${amount === 1 ? "" : "s"}`;
}
