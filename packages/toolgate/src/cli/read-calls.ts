import type { PolicySource, ToolCall } from "@toolgate/plugin-sdk";
import { readFile } from "node:fs/promises";
import { describeThrown } from "@toolgate/host/internal";
import { assertValidCall } from "@toolgate/host/internal";
import { CliError, exitCodes } from "./cli-error.js";
import { printNote } from "./output.js";

/** What a decisions log recorded about a call, for the commands that compare it with today's verdict. */
export interface RecordedDecision {
  verdict: "allow" | "block" | "ask";
  source?: PolicySource;
  session?: string;
}

/** One line that stands for a call: the call, its line number, and the decision when the line is a record. */
export interface CallLine {
  line: number;
  call: ToolCall;
  recorded?: RecordedDecision;
}

/** A line that stands for no call: a record without its arguments, or a line that is not a valid call or record. */
export interface SkippedLine {
  line: number;
  reason: "no-args" | "invalid";
  message: string;
}

export interface CallFile {
  calls: CallLine[];
  skipped: SkippedLine[];
}

/**
 * Reads a JSONL file of tool calls, one `{"id"?,"name","args","kind"?}` per line (a call without an id gets
 * `line-<n>`), or a decisions log (`.toolgate/decisions.jsonl`): each record that carries its arguments is
 * its call again, and the records that carry only a digest are counted and said on stderr. Blank lines are
 * skipped. Every line is checked before any call is returned, so a bad line means nothing runs.
 */
export async function readCalls(file: string): Promise<ToolCall[]> {
  const { calls, skipped } = await readCallFile(file);
  const invalid = skipped.find((line) => line.reason === "invalid");
  if (invalid !== undefined) throw new CliError(invalid.message, exitCodes.usage);
  const digestOnly = skipped.length;
  if (digestOnly > 0)
    printNote(
      `[toolgate] ${digestOnly} of the records in ${file} carry only a digest of their arguments and were not decided again (record them with decisions: { args: "full" })`,
    );
  return calls.map((line) => line.call);
}

/**
 * Every line of a calls file or decisions log, read as `readCalls` reads it, without stopping at a bad
 * line: each line that stands for no call is returned with why (`replay` and `diff` report them and go
 * on). An unreadable file is still an error.
 */
export async function readCallFile(file: string): Promise<CallFile> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new CliError(unreadable(file, error), exitCodes.usage);
  }
  return parseCalls(text, file);
}

function parseCalls(text: string, file: string): CallFile {
  const result: CallFile = { calls: [], skipped: [] };
  text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .forEach((line, index) => {
      if (line.trim() === "") return;
      const parsed = parseLine(line, `${file}:${index + 1}`, index + 1);
      if ("call" in parsed) result.calls.push({ line: index + 1, ...parsed });
      else result.skipped.push({ line: index + 1, ...parsed });
    });
  return result;
}

type ParsedLine = Omit<CallLine, "line"> | Omit<SkippedLine, "line">;

function parseLine(line: string, where: string, lineNumber: number): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { reason: "invalid", message: `${where} is not valid JSON: ${describeThrown(error)}` };
  }
  let recorded: RecordedDecision | undefined;
  if (isDecisionRecord(value)) {
    if (value.args === undefined) return { reason: "no-args", message: `${where} carries only a digest of its arguments` };
    recorded = recordedDecision(value);
    value = { id: value.callId ?? `line-${lineNumber}`, name: value.tool, args: value.args, ...(value.kind === "function" ? {} : { kind: value.kind }) };
  } else if (isObject(value) && !("id" in value)) value = { id: `line-${lineNumber}`, ...value };
  try {
    assertValidCall(value, where);
  } catch (error) {
    return { reason: "invalid", message: describeThrown(error) };
  }
  return recorded === undefined ? { call: value } : { call: value, recorded };
}

interface RecordLine {
  tool: string;
  verdict: string;
  kind?: string;
  callId?: string;
  args?: unknown;
  source?: unknown;
  session?: unknown;
}

function recordedDecision(record: RecordLine): RecordedDecision {
  const verdict = record.verdict === "block" || record.verdict === "ask" ? record.verdict : "allow";
  const source = isSource(record.source) ? { source: { kind: record.source.kind, name: record.source.name } } : {};
  return { verdict, ...source, ...(typeof record.session === "string" ? { session: record.session } : {}) };
}

function isSource(value: unknown): value is PolicySource {
  return isObject(value) && typeof value.kind === "string" && typeof value.name === "string";
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
