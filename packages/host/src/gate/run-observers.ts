import type { HookName, SessionInfo, ToolCall } from "@toolgate/plugin-sdk";
import type { HostRuntime } from "../host-runtime.js";
import { HookInvocationContext } from "../invocation/hook-context.js";
import { HookFailure, PendingHook, runHook, whenSettled } from "../invocation/run-hook.js";

type ObserverHook = Exclude<HookName, "pre_tool_call">;

/**
 * Runs an observer hook on every plugin, in plugin order, one after another. Observers fail open: a
 * throw, rejection or timeout is reported (`hook:error`) and the next plugin still runs. What an
 * observer returns is never read. `session` is the call's (see `callSession`) for `post_tool_call`.
 */
export async function runObservers(
  runtime: HostRuntime,
  hook: ObserverHook,
  leadingArgs: readonly unknown[],
  session: SessionInfo = runtime.session,
): Promise<void> {
  for (const entry of runtime.registry.hooks(hook)) {
    const ctx = new HookInvocationContext(entry.plugin, session, entry.owner.options, entry.owner.log);
    const deadlines = entry.deadlines ?? runtime.deadlines;
    let outcome = runHook(entry, ctx, deadlines, [...leadingArgs, ctx]);
    if (PendingHook.is(outcome)) outcome = await whenSettled(outcome);
    if (!HookFailure.is(outcome)) continue;
    // post_tool_call's first argument is the call; session hooks have none.
    const about = hook === "post_tool_call" ? { plugin: entry.plugin, hook, call: leadingArgs[0] as ToolCall } : { plugin: entry.plugin, hook };
    if (outcome.timedOut) runtime.events.emit("hook:timeout", { ...about, timeoutMs: deadlines.timeoutMs });
    runtime.events.emit("hook:error", { ...about, error: outcome.error });
    runtime.logger.warn(`${outcome.error.message}; observer hooks fail open, so the host carries on`);
  }
}
