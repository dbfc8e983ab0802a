import * as v from "valibot";
import type { ToolContext } from "./context.js";
import { isPlainObject } from "./plain-object.js";
import type { ToolArgs, ToolKind } from "./tool-call.js";

// Each shape is declared here once, as a valibot schema: the host checks values with it, and the SDK's
// types (`ToolCall`, `ToolDefinition`, the plain fields of `Plugin`) are inferred from it.

const nonEmptyString = v.pipe(v.string("must be a string"), v.nonEmpty("must not be empty"));
const isString = (value: unknown): value is string => typeof value === "string";
const isFunction = (value: unknown): value is (...args: never[]) => unknown => typeof value === "function";

/**
 * `execute` as a method, so a tool may declare narrower arguments (`(args: { path: string }) => …`): a
 * method parameter is checked bivariantly, a function property's is not.
 */
type Execute = { execute(args: ToolArgs, ctx: ToolContext): unknown }["execute"];

/** A tool call as the host accepts it. */
export const ToolCallSchema = v.object({
  /** The provider's call id (`tool_call_id`, `tool_use_id`, …). Unique within one batch. */
  id: nonEmptyString,
  /** The tool's name as the model used it. */
  name: nonEmptyString,
  /** The arguments; hooks see the result of every earlier `modify`. */
  args: v.custom<Readonly<ToolArgs>>(isPlainObject, "must be a plain object"),
  /** The tool's kind, when the caller knows it. */
  kind: v.optional(v.custom<ToolKind>(isString, "must be a string")),
});

/** A tool definition (agent's or plugin's). */
export const ToolDefinitionSchema = v.object({
  description: v.optional(v.string("must be a string")),
  /** JSON Schema of the arguments, as handed to the model. */
  parameters: v.optional(v.custom<Record<string, unknown>>(isPlainObject, "must be a plain object")),
  /** @default "function" (or "plugin" for tools a plugin contributes) */
  kind: v.optional(v.custom<ToolKind>(isString, "must be a string")),
  /**
   * Runs the tool. A string return is the content as is; any other value becomes `data`, and its JSON
   * the content. A throw becomes a `status: "error"` result: the model sees the message.
   */
  execute: v.custom<Execute>(isFunction, "must be a function"),
});

/**
 * A plugin's plain fields. Its `hooks` (names checked against the hook table, found on prototypes too)
 * and `tools` (each checked with `ToolDefinitionSchema`) are read by the host's own readers.
 */
export const PluginFieldsSchema = v.object({
  /** Unique within a host. */
  name: nonEmptyString,
  version: v.optional(v.string("must be a string")),
  description: v.optional(v.string("must be a string")),
  /** Lower runs first; ties are broken by name. @default 0 */
  order: v.optional(v.pipe(v.number("must be a number"), v.finite("must be finite"))),
});
