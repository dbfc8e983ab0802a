export type { ToolArgs, ToolCall, ToolKind } from "./tool-call.js";
export type {
  AllowResult,
  AskResult,
  BlockResult,
  ModifyResult,
  PreToolCallDecision,
  PreToolCallResult,
  ToolResult,
  Verdict,
} from "./results.js";
export {
  AllowResultSchema,
  AskResultSchema,
  BlockResultSchema,
  ModifyResultSchema,
  PreToolCallDecisionSchema,
} from "./results.js";
export type { HookContext, PluginLogger, PluginOptions, SessionInfo, ToolContext } from "./context.js";
export type { HookName, HookRole, HookSignatures, Hooks } from "./hooks.js";
export { hookNames, hookRoles, isHookName } from "./hooks.js";
export type { HostEventName, HostEvents, PluginRecord, PluginSource } from "./events.js";
export type { Plugin, PluginApi, PluginExport, PluginFactory, ToolDefinition } from "./plugin.js";
export { definePlugin } from "./plugin.js";
export type { CounterOptions, PluginStore, Reservation, ReserveOptions } from "./store.js";
export { PluginSchema, ToolCallSchema, ToolDefinitionSchema } from "./schemas.js";
export type { ValidPluginShape } from "./schemas.js";
export { isPlainObject } from "./plain-object.js";
