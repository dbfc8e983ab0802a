import type { ToolCall } from "@toolgate/plugin-sdk";
import { assertValidCall, describeThrown } from "@toolgate/host/internal";
import type { ToolCallExplanation } from "@toolgate/host";
import { openHost, stderrLogger } from "../cli/open-host.js";
import { failedPlugins } from "../cli/plugin-report.js";

export interface ExplainAnswer {
  explanation: ToolCallExplanation;
  failedPlugins: { plugin: string; error: string }[];
}

export class BadCall extends Error {}

/**
 * What `toolgate explain` prints for a recorded call, as JSON: the project's plugins loaded now (the
 * policy in force today, which may differ from the record's), each one's answer, and the verdict, in
 * the recorded call's session. No tool runs, and nothing is spent: the host reads the project's store
 * and keeps every write (a rate limit's slot, a budget's reservation) in its own memory (`storeWrites: "local"`).
 */
export async function explainRecordedCall(cwd: string, body: unknown): Promise<ExplainAnswer> {
  const call = callOf(body);
  const session = (body as { session?: unknown }).session;
  const host = await openHost({ cwd, logger: stderrLogger, storeWrites: "local" });
  try {
    const explanation = await host.explainToolCall(call, typeof session === "string" && session !== "" ? { session: { id: session } } : {});
    return { explanation, failedPlugins: failedPlugins(host.plugins).map((record) => ({ plugin: record.name, error: record.error ?? "failed to load" })) };
  } finally {
    await host.close();
  }
}

function callOf(body: unknown): ToolCall {
  const { tool, kind, callId, args } = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  const call = { id: typeof callId === "string" && callId !== "" ? callId : "call_ui", name: tool, args, ...(typeof kind === "string" ? { kind } : {}) };
  try {
    assertValidCall(call, "the recorded call");
  } catch (error) {
    throw new BadCall(`${describeThrown(error)} (send { "tool", "args", "kind"?, "callId"? } with the arguments as recorded in full)`);
  }
  return call as ToolCall;
}
