import type { Hooks, Plugin, ToolCall } from "@toolgate/host";

/** Whether every hook returns at once (`pre_tool_call() {}`) or through a promise (`async pre_tool_call() {}`). */
export type HookStyle = "sync" | "async";

/** Whether every plugin lets the call through, or the last one blocks it (so every hook still runs). */
export type Outcome = "pass" | "block";

/** A block as plugins return it; every contender reports the first one it sees. */
export interface BlockDecision {
  action: "block";
  message: string;
}

/** A `pre_tool_call` as the baselines call it: the context is not read, so each baseline passes its own. */
export type BenchHook = (call: ToolCall, ctx: unknown) => BlockDecision | undefined | Promise<BlockDecision | undefined>;

/** The hook functions of one measurement, and the same functions as toolgate plugins. */
export interface HookSet {
  style: HookStyle;
  outcome: Outcome;
  hooks: readonly BenchHook[];
  /** Fresh plugin objects around `hooks`, in the same order; a host may keep them. */
  plugins(): Plugin[];
}

/** The call every measurement makes. No generated hook blocks it, except the last one of a blocking set. */
export const benchCall: ToolCall = { id: "call-1", name: "noop", args: { path: "README.md", recursive: false } };

/**
 * `count` hooks, each its own function literal compiled from its own source, as if each came from a
 * separate plugin file: closures of one literal would share their code and its type feedback, which
 * flatters whichever loop calls them. Each does what a small policy does: reads an argument and compares.
 */
export function hookSet(count: number, style: HookStyle, outcome: Outcome): HookSet {
  const sources = Array.from({ length: count }, (_, index) => hookSource(index, style, outcome === "block" && index === count - 1));
  const hooks = new Function(`"use strict"; return [\n${sources.join(",\n")}\n];`)() as BenchHook[];
  const names = hooks.map((_, index) => `${outcome}-${style}-${String(index).padStart(4, "0")}`);
  return {
    style,
    outcome,
    hooks,
    plugins: () => hooks.map((hook, index) => ({ name: names[index]!, hooks: { pre_tool_call: hook as NonNullable<Hooks["pre_tool_call"]> } })),
  };
}

function hookSource(index: number, style: HookStyle, blocks: boolean): string {
  const keyword = style === "async" ? "async function" : "function";
  const body = blocks
    ? `return { action: "block", message: "plugin ${index} blocks every call" };`
    : `if (call.args.path === "/etc/secret-${index}") return { action: "block", message: "plugin ${index} protects /etc/secret-${index}" };`;
  return `${keyword} pre_tool_call_${index}(call, ctx) { ${body} }`;
}
