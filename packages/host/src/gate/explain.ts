import { PreToolCallDecisionSchema, type SessionInfo, type ToolArgs, type ToolCall, type Verdict } from "@toolgate/plugin-sdk";
import * as v from "valibot";
import type { RegisteredPlugin, PluginRegistry } from "../registry/registry.js";
import { validationMessage } from "../validation/summarize-issues.js";
import { addDecision, createAggregate, toVerdict, type Aggregate } from "./aggregate.js";
import { callView, freezeArgs } from "./freeze-call.js";
import { HookInvocationContext } from "./hook-context.js";
import { HookFailure, runHook, type HookRuntime } from "./run-hook.js";

/** What one plugin's `pre_tool_call` said about the call. */
export type PluginOutcome = "none" | "block" | "allow" | "ask" | "modify" | "error" | "invalid";

export interface PluginExplanation {
  plugin: string;
  path?: string;
  /** `none` also when the plugin has no `pre_tool_call` (it may still have `details`). */
  outcome: PluginOutcome;
  /** The block or ask message, the allow reason, the error, or why the result was invalid. */
  message?: string;
  /** The arguments a `modify` merged in. */
  args?: ToolArgs;
  /** What the plugin's optional `explain(call)` returned (JSON-safe), or `{ error }` when it failed. */
  details?: unknown;
}

export interface ToolCallExplanation {
  call: ToolCall;
  /** Every loaded plugin, in run order. */
  plugins: PluginExplanation[];
  /** The verdict the gate would reach, folded as the gate folds it. */
  verdict: Verdict;
}

export interface ExplainDependencies {
  registry: PluginRegistry;
  runtime: HookRuntime;
  session: SessionInfo;
  onHookError: "block" | "allow";
}

/**
 * Runs every plugin's `pre_tool_call` for one call, as the gate would, and says what each one answered,
 * plus each plugin's optional `explain(call)` details. Plugin code runs only through `runHook`. Unlike
 * the gate it emits no events and remembers nothing: it is a diagnostic (`toolgate explain`).
 */
export async function explainToolCall(deps: ExplainDependencies, call: ToolCall): Promise<ToolCallExplanation> {
  const seen = freezeArgs(call.args);
  const aggregate = createAggregate(seen);
  const plugins: PluginExplanation[] = [];
  for (const owner of deps.registry.plugins) {
    const view = callView(call, aggregate.args);
    const explanation = await runPreToolCall(deps, owner, view, aggregate);
    const details = await runExplain(deps, owner, view);
    plugins.push(details === undefined ? explanation : { ...explanation, details });
  }
  return { call, plugins, verdict: toVerdict(aggregate) };
}

async function runPreToolCall(deps: ExplainDependencies, owner: RegisteredPlugin, view: ToolCall, aggregate: Aggregate): Promise<PluginExplanation> {
  const base = owner.record.path === undefined ? { plugin: owner.plugin.name } : { plugin: owner.plugin.name, path: owner.record.path };
  const entry = deps.registry.hooks("pre_tool_call").find((candidate) => candidate.owner === owner);
  if (!entry) return { ...base, outcome: "none" };
  const ctx = new HookInvocationContext(entry.plugin, deps.session, owner.options, owner.log);
  const outcome = await runHook(entry, ctx, deps.runtime, [view, ctx]);
  if (outcome === undefined) return { ...base, outcome: "none" };
  if (outcome instanceof HookFailure) {
    if (deps.onHookError === "block") addDecision(aggregate, { action: "block", message: `${outcome.error.message} (failing closed)` }, entry.plugin);
    return { ...base, outcome: "error", message: outcome.error.message };
  }
  const parsed = v.safeParse(PreToolCallDecisionSchema, outcome);
  if (!parsed.success) return { ...base, outcome: "invalid", message: validationMessage(parsed.issues) };
  const decision = parsed.output;
  addDecision(aggregate, decision, entry.plugin);
  switch (decision.action) {
    case "block":
    case "ask":
      return { ...base, outcome: decision.action, message: decision.message };
    case "allow":
      return decision.reason === undefined ? { ...base, outcome: "allow" } : { ...base, outcome: "allow", message: decision.reason };
    case "modify":
      return { ...base, outcome: "modify", args: decision.args };
  }
}

async function runExplain(deps: ExplainDependencies, owner: RegisteredPlugin, view: ToolCall): Promise<unknown> {
  const { plugin } = owner;
  if (typeof plugin.explain !== "function") return undefined;
  const target = { plugin: plugin.name, path: owner.record.path, hook: "explain", fn: plugin.explain as (...args: unknown[]) => unknown, thisArg: plugin };
  const ctx = new HookInvocationContext(plugin.name, deps.session, owner.options, owner.log);
  const details = await runHook(target, ctx, deps.runtime, [view]);
  if (details instanceof HookFailure) return { error: details.error.message };
  return jsonSafe(details);
}

/** Details as JSON would carry them; a value JSON cannot hold (a cycle, a BigInt) becomes its description. */
function jsonSafe(value: unknown): unknown {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : (JSON.parse(text) as unknown);
  } catch (error) {
    return { error: `explain returned a value that is not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
}
