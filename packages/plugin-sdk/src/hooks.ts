import type { HookContext, PluginOptions } from "./context.js";
import type { PreToolCallResult, ToolResult } from "./results.js";
import type { ToolCall } from "./tool-call.js";

type MaybePromise<T> = T | Promise<T>;

/**
 * The one list of hooks: name → signature. Hook names are snake_case because they are wire identifiers
 * shared with shell hooks.
 */
export interface HookSignatures<Options = PluginOptions> {
  /**
   * Runs before every tool call, on every execution path, exactly once per call. The policy hook: return
   * `block`, `ask`, `allow` or `modify`, or nothing for no opinion. A throw or a timeout blocks the call
   * (fail closed) unless the host sets `onHookError: "allow"`.
   */
  pre_tool_call(call: ToolCall, ctx: HookContext<Options>): MaybePromise<PreToolCallResult>;
  /**
   * Runs after a tool ran, for `ok` and `error` results, never for a blocked call. An observer: its
   * return value is ignored and its failures are reported without affecting the call.
   */
  post_tool_call(call: ToolCall, result: ToolResult, ctx: HookContext<Options>): MaybePromise<void>;
  /** Runs once when the host has loaded every plugin, before `createHost` resolves. An observer. */
  on_session_start(ctx: HookContext<Options>): MaybePromise<void>;
  /** Runs once on `host.close()`. An observer. */
  on_session_end(ctx: HookContext<Options>): MaybePromise<void>;
}

export type HookName = keyof HookSignatures;

/** The hooks a plugin implements; all optional, each sync or async. */
export type Hooks<Options = PluginOptions> = { [Name in HookName]?: HookSignatures<Options>[Name] };

/** `policy` hooks decide and fail closed; `observer` hooks only watch and fail open. */
export type HookRole = "policy" | "observer";

/** Every hook with its role. Adding a hook to `HookSignatures` without a role here fails to compile. */
export const hookRoles = {
  pre_tool_call: "policy",
  post_tool_call: "observer",
  on_session_start: "observer",
  on_session_end: "observer",
} as const satisfies Record<HookName, HookRole>;

/** Every valid hook name, in the order a call meets them. */
export const hookNames = Object.keys(hookRoles) as HookName[];

/** True when `name` is a hook toolgate calls. */
export function isHookName(name: string): name is HookName {
  return Object.hasOwn(hookRoles, name);
}
