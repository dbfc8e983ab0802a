// `@toolgate/plugin-sdk/host`: what a host needs to check plugins, calls and hook results. One valibot
// schema per shape serves both the runtime check and the type the SDK exports. Plugin authors need none of it.
export {
  AllowResultSchema,
  AskResultSchema,
  BlockResultSchema,
  ModifyResultSchema,
  PreToolCallDecisionSchema,
} from "./results.js";
export { hookNames, hookRoles, isHookName } from "./hooks.js";
export { PluginFieldsSchema, ToolCallSchema, ToolDefinitionSchema } from "./schemas.js";
export { isPlainObject } from "./plain-object.js";
export { storeEpsilon, type CallEnd, type ReserveRequest, type StoreBackend } from "./store-backend.js";
