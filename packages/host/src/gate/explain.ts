import type { ToolArgs, ToolCall, Verdict } from "@toolgate/plugin-sdk";
import { describeThrown } from "../errors.js";
import { jsonCopy } from "../json-copy.js";
import type { HostRuntime } from "../host-runtime.js";
import { HookInvocationContext } from "../invocation/hook-context.js";
import { HookFailure, PendingHook, runHook, whenSettled } from "../invocation/run-hook.js";
import type { CallSnapshot } from "../call/snapshot.js";

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
  /** The plugin runs in shadow mode: its answer is shown but took no part in the verdict. */
  shadow?: true;
  /** What the plugin's optional `explain(call)` returned (as JSON carries it), or `{ error }` when it failed. */
  details?: unknown;
}

export type PluginOutcome = PluginExplanation["outcome"];

/**
 * The gate's verdict on a call and how every plugin contributed to it, in plugin order: each plugin with
 * a `pre_tool_call`, and each plugin with only an `explain` (outcome `none`).
 */
export interface ToolCallExplanation {
  /** The call as the host read it (its own snapshot). */
  call: ToolCall;
  /** The verdict before any `onAsk` (an `ask` stays an `ask`). */
  verdict: Verdict;
  plugins: PluginExplanation[];
}

/**
 * Adds what each plugin's optional `explain(call)` says to the gate's per-plugin outcomes (a plugin with
 * only an `explain` gets an entry of its own, outcome `none`), in plugin order. `explain` is plugin code,
 * so it runs through `runHook` like a hook: same timeout, and whatever it throws is reported, not raised.
 */
export async function withExplainDetails(runtime: HostRuntime, snapshot: CallSnapshot, outcomes: readonly PluginExplanation[]): Promise<PluginExplanation[]> {
  const explained: PluginExplanation[] = [];
  for (const owner of runtime.registry.plugins) {
    const name = owner.plugin.name;
    const outcome = outcomes.find((entry) => entry.plugin === name);
    const details = owner.plugin.explain === undefined ? undefined : await explainDetails(runtime, owner, snapshot);
    if (!outcome && details === undefined) continue;
    const entry: PluginExplanation = outcome ? { ...outcome } : { plugin: name, outcome: "none" };
    if (details !== undefined) entry.details = details;
    explained.push(entry);
  }
  return explained;
}

type Owner = HostRuntime["registry"]["plugins"][number];

async function explainDetails(runtime: HostRuntime, owner: Owner, { call, session }: CallSnapshot): Promise<unknown> {
  const { plugin } = owner;
  const target = { plugin: plugin.name, path: owner.record.path, hook: "explain", fn: plugin.explain as (...args: unknown[]) => unknown, thisArg: undefined };
  const ctx = new HookInvocationContext(plugin.name, session, owner.options, owner.log);
  let outcome = runHook(target, ctx, runtime.deadlines, [call]);
  if (PendingHook.is(outcome)) outcome = await whenSettled(outcome);
  if (HookFailure.is(outcome)) return { error: outcome.error.message };
  return asJson(outcome);
}

/** Details as JSON carries them; a value JSON cannot hold (a cycle, a BigInt) is reported as such. */
function asJson(value: unknown): unknown {
  const copy = jsonCopy(value);
  if (copy.ok) return copy.value;
  return { error: `explain returned a value that is not JSON: ${describeThrown(copy.error)}` };
}
