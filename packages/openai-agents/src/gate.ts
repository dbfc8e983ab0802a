import type { Host, ToolCall, Verdict } from "@toolgate/host";

/** What each wrapped tool needs from the host: one verdict per call, and the text of a block. */
export interface CallGate {
  /** Runs `pre_tool_call` once for the call. An `ask` stays an `ask`: the SDK's approval flow answers it. */
  check(call: ToolCall): Promise<Verdict>;
  /** The text the model reads for a blocked call: the plugin's message verbatim, naming the plugin. */
  blockedText(call: ToolCall, verdict: Verdict): Promise<string>;
}

export function createCallGate(host: Host): CallGate {
  return {
    check: (call) => host.checkToolCall(call),
    async blockedText(call, verdict) {
      // The host writes the block: handing it the call it just checked ends it blocked, with its
      // tool:blocked and tool:end events, and pre_tool_call does not fire again.
      const result = await host.callTool(call, { skipPreToolCallHook: true });
      if (result.status === "blocked") return result.content;
      return `Tool call blocked by ${verdict.plugin === undefined ? "the tool gate" : `plugin "${verdict.plugin}"`}: ${verdict.message ?? "blocked"}`;
    },
  };
}

let generated = 0;

/** An id for a call the SDK gives none (computer actions reach the computer without theirs). */
export function generatedCallId(prefix: string): string {
  generated += 1;
  return `${prefix}_toolgate_${generated}`;
}
