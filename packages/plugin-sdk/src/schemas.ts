import * as v from "valibot";
import { isPlainObject } from "./plain-object.js";

const plainObject = v.custom<Record<string, unknown>>(isPlainObject, "must be a plain object");

/** A tool call as the host accepts it. */
export const ToolCallSchema = v.object({
  id: v.pipe(v.string("must be a string"), v.nonEmpty("must not be empty")),
  name: v.pipe(v.string("must be a string"), v.nonEmpty("must not be empty")),
  args: plainObject,
  kind: v.optional(v.string("must be a string")),
});

/** A tool definition (agent's or plugin's). */
export const ToolDefinitionSchema = v.object({
  description: v.optional(v.string()),
  parameters: v.optional(plainObject),
  kind: v.optional(v.string()),
  execute: v.function("must be a function"),
});

/**
 * The shape of a valid plugin. Hook values are checked to be functions; hook names are checked apart so
 * an unknown name is a warning (with a suggestion), not a failure.
 */
export const PluginSchema = v.object({
  name: v.pipe(v.string("must be a string"), v.nonEmpty("must not be empty")),
  version: v.optional(v.string("must be a string")),
  description: v.optional(v.string("must be a string")),
  order: v.optional(v.pipe(v.number("must be a number"), v.finite("must be finite"))),
  hooks: v.optional(v.record(v.string(), v.function("must be a function"))),
  tools: v.optional(v.record(v.string(), ToolDefinitionSchema)),
  explain: v.optional(v.function("must be a function")),
});

export type ValidPluginShape = v.InferOutput<typeof PluginSchema>;
