import type { ToolCall, Verdict } from "@toolgate/plugin-sdk";

/** What the model reads for a blocked call: the plugin's message verbatim, naming the plugin. */
export function blockReason(verdict: Verdict): string {
  const by = verdict.plugin === undefined ? "toolgate" : `plugin "${verdict.plugin}"`;
  return `Tool call blocked by ${by}: ${verdict.message ?? "no reason given"}`;
}

export function askReason(verdict: Verdict): string {
  const by = verdict.plugin === undefined ? "toolgate" : `plugin "${verdict.plugin}"`;
  return `Approval needed (${by}): ${verdict.message ?? "no reason given"}`;
}

/** True when a plugin's `modify` changed the arguments the tool would run with. */
export function hasRewrittenArgs(verdict: Verdict, call: ToolCall): boolean {
  return JSON.stringify(verdict.args) !== JSON.stringify(call.args);
}

/** Keys of the call's own arguments that the verdict's arguments no longer have. */
export function removedArgs(verdict: Verdict, call: ToolCall): string[] {
  return Object.keys(call.args).filter((key) => !Object.hasOwn(verdict.args, key));
}
