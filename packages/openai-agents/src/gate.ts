import { blockMessage, type Host, type ToolCall, type Verdict } from "@toolgate/host";

/** What each wrapped tool needs from the host: one verdict per call, and the text of a block. */
export interface CallGate {
  /**
   * Runs `pre_tool_call` once for the call. An `ask` is settled by the host's `onAsk` when it has one;
   * otherwise it stays an `ask`, and the SDK's approval flow answers it.
   */
  check(call: ToolCall): Promise<Verdict>;
  /** The text the model reads for a blocked call: the host's `blockMessage`, the plugin's message verbatim, naming the plugin. */
  blockedText(call: ToolCall, verdict: Verdict): Promise<string>;
}

export function createCallGate(host: Host): CallGate {
  return {
    check: (call) => host.checkToolCall(call, { resolveAsk: true, surface: "openai-agents" }),
    async blockedText(call, verdict) {
      // The host ends the call it just checked as blocked, so its tool:blocked and tool:end events fire
      // (a rate limit releases the call's slot on tool:end) and pre_tool_call does not fire again.
      const result = await host.callTool(call, { skipPreToolCallHook: true });
      return result.status === "blocked" ? result.content : blockMessage(verdict);
    },
  };
}

let generated = 0;

/** An id for a call the SDK gives none (computer actions reach the computer without theirs). */
export function generatedCallId(prefix: string): string {
  generated += 1;
  return `${prefix}_toolgate_${generated}`;
}
