import type { ToolDefinition } from "@toolgate/plugin-sdk";
import { isPlainObject, ToolDefinitionSchema } from "@toolgate/plugin-sdk/host";
import * as v from "valibot";
import { describeThrown } from "../errors.js";
import { describeType } from "./describe-type.js";
import { readField } from "./read-field.js";
import { summarizeIssues } from "../schema-messages/summarize-issues.js";

export type ToolsRead = { ok: true; tools: Record<string, ToolDefinition> } | { ok: false; reason: string };

const definitionKeys = ["description", "parameters", "kind", "execute"] as const;

/**
 * The tools a plugin contributes, each field read once into the host's own definition. `tools` is a
 * plain object (name → definition); `execute` keeps the author's definition as `this`.
 */
export function readTools(tools: unknown): ToolsRead {
  if (tools === undefined) return { ok: true, tools: {} };
  try {
    return readEach(tools);
  } catch (error) {
    return { ok: false, reason: `reading tools threw: ${describeThrown(error)}` };
  }
}

function readEach(tools: unknown): ToolsRead {
  if (!isPlainObject(tools)) {
    const got = typeof tools === "object" && tools !== null && !Array.isArray(tools) ? "an object with a prototype (a class instance?)" : describeType(tools);
    return { ok: false, reason: `tools must be a plain object (tool name → definition), got ${got}` };
  }
  const copies: Record<string, ToolDefinition> = Object.create(null);
  for (const name of Object.keys(tools)) {
    const read = readField(tools, name, `tools.${name}`);
    if (!read.ok) return read;
    const copy = readDefinition(read.value, `tools.${name}`);
    if (!copy.ok) return copy;
    copies[name] = copy.definition;
  }
  return { ok: true, tools: copies };
}

function readDefinition(definition: unknown, path: string): { ok: true; definition: ToolDefinition } | { ok: false; reason: string } {
  if (typeof definition !== "object" || definition === null || Array.isArray(definition))
    return { ok: false, reason: `${path} must be a tool definition object, got ${describeType(definition)}` };
  const fields: Record<string, unknown> = {};
  for (const key of definitionKeys) {
    const read = readField(definition, key, `${path}.${key}`);
    if (!read.ok) return read;
    if (read.value !== undefined) fields[key] = read.value;
  }
  const parsed = v.safeParse(ToolDefinitionSchema, fields);
  if (!parsed.success) return { ok: false, reason: summarizeIssues(parsed.issues, 3, path) };
  const execute = fields.execute as ToolDefinition["execute"];
  return { ok: true, definition: { ...(fields as Omit<ToolDefinition, "execute">), execute: (args, ctx) => execute.call(definition, args, ctx) } };
}
