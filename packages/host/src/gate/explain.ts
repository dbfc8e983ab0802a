import type { ToolArgs, Verdict } from "@toolgate/plugin-sdk";

/** What one plugin's `pre_tool_call` said about a call, as `host.explainToolCall` reports it. */
export interface PluginExplanation {
  plugin: string;
  /**
   * `none`: no opinion. `block`/`allow`/`ask`/`modify`: a valid result of that action. `error`: the hook
   * threw, rejected, timed out or returned something unreadable. `invalid`: a result that is not one of
   * the valid shapes, ignored.
   */
  outcome: "none" | "block" | "allow" | "ask" | "modify" | "error" | "invalid";
  /** The block or ask message, the allow reason, the error, or why the result is invalid. */
  message?: string;
  /** For `modify`: the arguments as they stand after this plugin's modify was merged in. */
  args?: ToolArgs;
}

/** The gate's verdict on a call and how every plugin contributed to it, in plugin order. */
export interface ToolCallExplanation {
  /** The verdict before any `onAsk` (an `ask` stays an `ask`). */
  verdict: Verdict;
  plugins: PluginExplanation[];
}
