import { writeSync } from "node:fs";
import { isAbsolute, relative } from "node:path";
import { escapeControl, escapeJsonText } from "@toolgate/host/internal";
import { createColors, type Colors } from "./colors.js";

/**
 * Colours for one stream: on only when it is a terminal and NO_COLOR is unset (never on for `CI` or
 * `FORCE_COLOR` when output is piped: escape codes do not belong in files and other programs' input).
 * Decided on first use: asking `process.stdout` whether it is a terminal creates the stream (Node's
 * streams stack, a few ms), which JSON output and the hook never need.
 */
function colorsFor(stream: () => NodeJS.WriteStream): Colors {
  let colors: Colors | undefined;
  const resolved = () => (colors ??= createColors(stream().isTTY === true && !process.env.NO_COLOR && process.env.TERM !== "dumb"));
  return new Proxy({} as Colors, { get: (_target, key) => resolved()[key as keyof Colors] });
}

/** Colours for stdout. */
export const color = colorsFor(() => process.stdout);
const errorColor = colorsFor(() => process.stderr);

/**
 * Writes to stdout with a plain synchronous write, so that printing does not create `process.stdout`
 * (see `colorsFor`) and the text is out before the process exits. A pipe the reader keeps full
 * (EAGAIN on a non-blocking pipe) gets the rest through the stream, which waits for it.
 */
function writeOut(text: string): void {
  const bytes = Buffer.from(text);
  let written = 0;
  try {
    while (written < bytes.length) written += writeSync(1, bytes, written);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
    process.stdout.write(bytes.subarray(written));
  }
}

/**
 * One line on stdout, as given: the line may hold our own colour codes, so text from plugins, calls or
 * files goes through `escapeControl` (or `safeJson`) before it is put into it.
 */
export function printLine(text = ""): void {
  writeOut(`${text}\n`);
}

/** JSON text that is safe on a terminal: C1 controls and bidi overrides written as `\u` escapes too. */
export function safeJson(value: unknown, indent?: number): string {
  return escapeJsonText(JSON.stringify(value, null, indent) ?? "null");
}

/** One JSON document (pretty) on stdout, for `list --json` and `check --json`. */
export function printJson(value: unknown): void {
  writeOut(`${safeJson(value, 2)}\n`);
}

/** One JSON value per line (JSONL) on stdout, for `run --json`. */
export function printJsonLine(value: unknown): void {
  writeOut(`${safeJson(value)}\n`);
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
