import { readFileSync } from "node:fs";
import { parseRecord, type DecisionRecord } from "./record.js";
import { rotatedPathOf } from "@toolgate/host/internal";

/** Every record in the log: the rotated file's, then the live file's, lines that don't parse skipped. */
export function readLog(logPath: string): DecisionRecord[] {
  return [...recordsOf(readIfThere(rotatedPathOf(logPath))), ...recordsOf(readIfThere(logPath))];
}

/** The records in `bytes`; a last line without its newline is a writer's line in progress, left out. */
export function recordsOf(bytes: Buffer | undefined): DecisionRecord[] {
  if (bytes === undefined) return [];
  return completeLines(bytes).lines.flatMap((line) => {
    const record = parseRecord(line);
    return record === undefined ? [] : [record];
  });
}

/** The complete lines of `bytes`, and what follows the last newline. Split on bytes, so a character is never cut. */
export function completeLines(bytes: Buffer): { lines: string[]; rest: Buffer } {
  const end = bytes.lastIndexOf(0x0a);
  if (end === -1) return { lines: [], rest: bytes };
  return { lines: bytes.subarray(0, end).toString("utf8").split("\n"), rest: bytes.subarray(end + 1) };
}

export function readIfThere(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}
