import type { PluginApi, PluginOptions } from "@toolgate/plugin-sdk";
import { describeThrown, ToolgateError } from "../errors.js";
import { HookInvocationContext } from "../invocation/hook-context.js";
import { isThenable } from "../invocation/is-thenable.js";
import { HookFailure, runHook, type HookRuntime } from "../invocation/run-hook.js";

export type Instantiation = { ok: true; value: unknown } | { ok: false; error: ToolgateError };

/** What a factory is called with, and who it is for the error messages. */
export interface FactoryCall {
  /** The plugin's name until it names itself: its package or file name. */
  readonly label: string;
  readonly path: string | undefined;
  readonly options: PluginOptions;
  readonly api: PluginApi;
  readonly runtime: HookRuntime;
}

/**
 * A plugin object is used as is; a factory is called with its options through `runHook`, the one caller
 * of plugin code, so it gets the same timeout and the same handling of whatever it throws or returns.
 */
export async function instantiatePlugin(exported: unknown, call: FactoryCall): Promise<Instantiation> {
  if (typeof exported !== "function") return { ok: true, value: exported };
  const target = { plugin: call.label, path: call.path, hook: "factory", fn: exported as (...args: unknown[]) => unknown, thisArg: undefined };
  const ctx = new HookInvocationContext(call.label, call.api.session, call.options, call.api.log);
  let outcome = runHook(target, ctx, call.runtime, [call.options, call.api]);
  if (isThenable(outcome)) outcome = await outcome;
  if (!(outcome instanceof HookFailure)) return { ok: true, value: outcome };
  const reason = `the plugin factory failed: ${describeFailure(outcome, call.runtime)}`;
  return { ok: false, error: new ToolgateError("PLUGIN_FACTORY_FAILED", reason, { path: call.path, cause: outcome.error }) };
}

function describeFailure(failure: HookFailure, runtime: HookRuntime): string {
  if (failure.error.code === "HOOK_TIMEOUT") return `timed out after ${runtime.timeoutMs} ms`;
  if (failure.error.code === "HOOK_ABORTED") return "aborted: the host closed";
  return describeThrown(failure.error.cause);
}
