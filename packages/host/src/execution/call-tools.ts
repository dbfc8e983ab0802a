import type { ToolResult } from "@toolgate/plugin-sdk";
import { ToolgateError } from "../errors.js";
import type { CallSessionOptions } from "./call-tool.js";
import type { CallSnapshot } from "../call/snapshot.js";

export interface CallToolsOptions extends CallSessionOptions {
  /** How many calls run at once; 1 runs them one after another. @default 1 */
  concurrency?: number;
  /** The surface named in these calls' decision records (an adapter names itself). @default the host's `surface` */
  surface?: string;
}

/**
 * Runs a batch the caller has already snapshotted (every call checked before any runs): each call is
 * gated once and yields exactly one result, and results come back in input order whatever order they
 * finish in.
 */
export async function callTools(
  snapshots: readonly CallSnapshot[],
  options: CallToolsOptions,
  runOne: (snapshot: CallSnapshot) => Promise<ToolResult>,
): Promise<ToolResult[]> {
  const concurrency = options.concurrency ?? 1;
  if (!(concurrency >= 1)) throw new ToolgateError("INVALID_CALL", `concurrency must be 1 or more (got ${String(concurrency)})`);
  const results = new Array<ToolResult>(snapshots.length);
  let next = 0;
  const worker = async () => {
    while (next < snapshots.length) {
      const index = next++;
      results[index] = await runOne(snapshots[index]!);
    }
  };
  const workers = Math.min(concurrency, snapshots.length);
  await Promise.all(Array.from({ length: workers }, worker));
  return results;
}
