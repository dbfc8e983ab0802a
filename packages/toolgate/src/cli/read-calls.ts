import type { ToolCall } from "@toolgate/plugin-sdk";
import { readFile } from "node:fs/promises";
import { describeThrown } from "@toolgate/host/internal";
import { assertValidCall } from "@toolgate/host/internal";
import { CliError, exitCodes } from "./cli-error.js";

/**
 * Reads a JSONL file of tool calls, one `{"id","name","args","kind"?}` per line; blank lines are
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
  text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .forEach((line, index) => {
      if (line.trim() !== "") calls.push(parseCall(line, `${file}:${index + 1}`));
    });
  return calls;
}

function parseCall(line: string, where: string): ToolCall {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    throw new CliError(`${where} is not valid JSON: ${describeThrown(error)}`, exitCodes.usage);
  }
  try {
    assertValidCall(value, where);
  } catch (error) {
    throw new CliError(describeThrown(error), exitCodes.usage);
  }
  return value;
}

function unreadable(file: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return `${file} does not exist`;
  if (code === "EISDIR") return `${file} is a folder, not a JSONL file of tool calls`;
  return `cannot read ${file}: ${describeThrown(error)}`;
}
