// What plugin authors use: `definePlugin` and the types of plugins, hooks, calls and results. What a host
// needs besides (the valibot schemas, the hook table) is the `@toolgate/plugin-sdk/host` subpath.
export type { ToolArgs, ToolCall, ToolKind } from "./tool-call.js";
export type {
  AllowResult,
  AskResult,
  BlockResult,
  ModifyResult,
  PolicyKind,
  PolicySource,
  PreToolCallDecision,
  PreToolCallResult,
  ToolResult,
  Verdict,
} from "./results.js";
export type { HookContext, PluginLogger, PluginOptions, SessionInfo, ToolContext } from "./context.js";
export type { PolicyContext } from "./policy-context.js";
export type { HookName, HookRole, HookSignatures, Hooks } from "./hooks.js";
export type { HostEventName, HostEvents, PluginRecord, PluginSource } from "./events.js";
export type { DecisionParticipant, DecisionRecord, ParticipantAction } from "./decision-record.js";
export { shadowVerdict } from "./decision-record.js";
export type { Plugin, PluginApi, PluginExport, PluginFactory, ToolDefinition } from "./plugin.js";
export { definePlugin } from "./plugin.js";
export type { CounterOptions, PluginStore, Reservation, ReserveOptions } from "./store.js";
export { storeFailure, type OnStoreError } from "./store-failure.js";
export { commandFields, shellCommands, isShellCall, quoteWord, type ShellCommandField } from "./shell-calls.js";
export { agentToolKinds, kindOfTool, shellToolNames, toolKindAgents, type KindOfToolOptions, type ToolKindAgent } from "./tool-kinds.js";
export { inputFields } from "./session-input.js";
export { nearestKey, optionsError } from "./options-error.js";
export { formatDuration, formatRetry } from "./durations.js";
