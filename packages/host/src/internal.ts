// `@toolgate/host/internal`: what the `toolgate` CLI (packages/toolgate) needs from the library beyond its
// public API. For toolgate's own packages only: no semver promise, anything here may change in any release.
export { findConfigFile, configFileNames, isDataFile, loadConfigFile } from "./discovery/config-file.js";
export { describeThrown } from "./errors.js";
export { escapeControl, escapeJsonText } from "./escape-control.js";
export { assertValidCall } from "./call/validate-call.js";
export { unapproved } from "./gate/resolve-ask.js";
export { shadowOf, type ShadowAnswer } from "./gate/shadow.js";
export { userCacheDir } from "./loading/user-cache-dir.js";
export { createConsoleLogger } from "./logger.js";
export { mcpToolDefinition, mcpToolOutput, type McpToolInfo } from "./adapters/mcp-tools.js";
export { PermissionRules, ruleSyntaxError } from "./policies/permission-rules.js";
export { resolveSettings, withProjectDecisionsLog, type HostSettings } from "./settings.js";
export { rotatedPathOf } from "./decisions/decision-log.js";
export { createHostWithSettings } from "./create-host.js";
export {
  cedarPackage,
  celPackage,
  importOptional,
  MissingPackageError,
  modelHooksPackage,
  sandboxPackage,
  storeRedisPackage,
} from "./optional-packages/import-optional.js";
