import type { ToolCall } from "@toolgate/plugin-sdk";
import { readFile } from "node:fs/promises";
import { describeThrown } from "@toolgate/host/internal";
import { assertValidCall } from "@toolgate/host/internal";
import { CliError, exitCodes } from "./cli-error.js";
import { printNote } from "./output.js";

/**
 * Reads a JSONL file of tool calls, one `{"id"?,"name","args","kind"?}` per line (a call without an id gets
 * `line-<n>`), or a decisions log (`.toolgate/decisions.jsonl`): each record that carries its arguments is
 * its call again, and the records that carry only a digest are counted and said on stderr. Blank lines are
 * skipped. Every line is checked before any call is returned, so a bad line means nothing runs.
 */
export async function readCalls(file: string): Promise<ToolCall[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new CliError(unreadable(file, error), exitCodes.usage);
  }
  return parseCalls(text, file);
}

function parseCalls(text: string, file: string): ToolCall[] {
  const calls: ToolCall[] = [];
  let digestOnly = 0;
  text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .forEach((line, index) => {
      if (line.trim() === "") return;
      const call = parseCall(line, `${file}:${index + 1}`, index + 1);
      if (call === undefined) digestOnly++;
      else calls.push(call);
    });
  if (digestOnly > 0)
    printNote(
      `[toolgate] ${digestOnly} of the records in ${file} carry only a digest of their arguments and were not decided again (record them with decisions: { args: "full" })`,
    );
  return calls;
}

/** The call on one line; undefined for a decision record that carries no arguments. */
function parseCall(line: string, where: string, lineNumber: number): ToolCall | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    throw new CliError(`${where} is not valid JSON: ${describeThrown(error)}`, exitCodes.usage);
  }
  if (isDecisionRecord(value)) {
    if (value.args === undefined) return undefined;
    value = { id: value.callId ?? `line-${lineNumber}`, name: value.tool, args: value.args, ...(value.kind === "function" ? {} : { kind: value.kind }) };
  } else if (isObject(value) && !("id" in value)) value = { id: `line-${lineNumber}`, ...value };
  try {
    assertValidCall(value, where);
  } catch (error) {
    throw new CliError(describeThrown(error), exitCodes.usage);
  }
  return value;
}

interface RecordLine {
  tool: string;
  kind?: string;
  callId?: string;
  args?: unknown;
}

/** A line of a decisions log (`{"v":1,"time",…,"tool",…,"verdict",…}`), not a call. */
function isDecisionRecord(value: unknown): value is RecordLine {
  return isObject(value) && value.v === 1 && typeof value.time === "string" && typeof value.tool === "string" && typeof value.verdict === "string";
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function unreadable(file: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return `${file} does not exist`;
  if (code === "EISDIR") return `${file} is a folder, not a JSONL file of tool calls`;
  return `cannot read ${file}: ${describeThrown(error)}`;
}
