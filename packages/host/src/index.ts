export { createHost, type Host } from "./create-host.js";
export {
  defineConfig,
  type AskHandler,
  type DecisionsConfig,
  type HostOptions,
  type PluginEntry,
  type PluginHostSettings,
  type PluginSpecifier,
  type SessionOptions,
  type ToolgateConfig,
} from "./options.js";
export type { CallSessionOptions, CallToolOptions, CheckToolCallOptions, ToolCallInput } from "./execution/call-tool.js";
export { askMessage, blockMessage } from "./execution/tool-results.js";
export type { PluginExplanation, PluginOutcome, ToolCallExplanation } from "./gate/explain.js";
export type { CallToolsOptions } from "./execution/call-tools.js";
export { mcpTools, type McpCallToolResult, type McpClientLike, type McpToolsOptions } from "./adapters/mcp-tools.js";
export { errorCodes, isToolgateError, ToolgateError, type ErrorCode } from "./errors.js";
export { hostEventNames, type HostEmitter, type HostEventListeners } from "./events.js";
export type { HostLogger } from "./logger.js";
export type { Denial } from "./policies/denials.js";
export type { HooksConfig, HookConfig, CommandHookConfig, HttpHookConfig, ModelHookConfig, CelHookConfig } from "./policies/policy-config.js";
export type { PermissionsConfig } from "./policies/permission-rules.js";
export {
  toToolMessage,
  toolMessageFormats,
  type AiSdkToolResult,
  type AnthropicToolResult,
  type McpToolResult,
  type OpenAIToolMessage,
  type ResponsesToolOutput,
  type ToolMessageFormat,
  type ToolMessageFormats,
} from "./messages/to-tool-message.js";
export type {
  DecisionParticipant,
  DecisionRecord,
  HookContext,
  HookName,
  Hooks,
  HostEvents,
  Plugin,
  PluginRecord,
  PolicyKind,
  ParticipantAction,
  PolicySource,
  PreToolCallResult,
  SessionInfo,
  ToolCall,
  ToolDefinition,
  ToolResult,
  Verdict,
} from "@toolgate/plugin-sdk";
// The one table of agent tool names to kinds, for adapters that map an agent's tools (the Claude Agent SDK's).
export { kindOfTool, toolKindAgents, type KindOfToolOptions, type ToolKindAgent } from "@toolgate/plugin-sdk";
