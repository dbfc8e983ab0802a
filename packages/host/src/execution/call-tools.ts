import type { ToolCall, ToolResult } from "@toolgate/plugin-sdk";
import { ToolgateError } from "../errors.js";
import { assertValidBatch } from "./validate-call.js";

export interface CallToolsOptions {
  /** How many calls run at once; 1 runs them one after another. @default 1 */
  concurrency?: number;
}

/**
 * Runs a batch: every call is checked before any runs, each call is gated once and yields exactly one
 * result, and results come back in input order whatever order they finish in.
 */
export async function callTools(
  calls: readonly ToolCall[],
  options: CallToolsOptions,
  runOne: (call: ToolCall) => Promise<ToolResult>,
): Promise<ToolResult[]> {
  assertValidBatch(calls);
  const concurrency = options.concurrency ?? 1;
  if (!(concurrency >= 1)) throw new ToolgateError("INVALID_CALL", `concurrency must be 1 or more (got ${String(concurrency)})`);
  const results = new Array<ToolResult>(calls.length);
  let next = 0;
  const worker = async () => {
    while (next < calls.length) {
      const index = next++;
      results[index] = await runOne(calls[index]!);
    }
  };
  const workers = Math.min(concurrency, calls.length);
  await Promise.all(Array.from({ length: workers }, worker));
  return results;
}
