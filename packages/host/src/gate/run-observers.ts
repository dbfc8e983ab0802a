import type { HookName, SessionInfo, ToolCall } from "@toolgate/plugin-sdk";
import type { EventBus } from "../events.js";
import type { HostLogger } from "../logger.js";
import type { PluginRegistry } from "../registry/registry.js";
import { HookInvocationContext } from "./hook-context.js";
import { HookFailure, runHook, type HookRuntime } from "./run-hook.js";
import { isThenable } from "./is-thenable.js";

export interface ObserverDependencies {
  registry: PluginRegistry;
  runtime: HookRuntime;
  events: EventBus;
  logger: HostLogger;
  session: SessionInfo;
}

type ObserverHook = Exclude<HookName, "pre_tool_call">;

/**
 * Runs an observer hook on every plugin, in plugin order, one after another. Observers fail open: a
 * throw, rejection or timeout is reported (`hook:error`) and the next plugin still runs.
 */
export async function runObservers(deps: ObserverDependencies, hook: ObserverHook, leadingArgs: readonly unknown[]): Promise<void> {
  for (const entry of deps.registry.hooks(hook)) {
    const ctx = new HookInvocationContext(entry.plugin, deps.session, entry.owner.options, entry.owner.log);
    let outcome = runHook(entry, ctx, deps.runtime, [...leadingArgs, ctx]);
    if (isThenable(outcome)) outcome = await outcome;
    if (!(outcome instanceof HookFailure)) continue;
    // post_tool_call's first argument is the call; session hooks have none.
    const about = hook === "post_tool_call" ? { plugin: entry.plugin, hook, call: leadingArgs[0] as ToolCall } : { plugin: entry.plugin, hook };
    if (outcome.timedOut) deps.events.emit("hook:timeout", { ...about, timeoutMs: deps.runtime.timeoutMs });
    deps.events.emit("hook:error", { ...about, error: outcome.error });
    deps.logger.warn(`${outcome.error.message}; observer hooks fail open, so the host carries on`);
  }
}
