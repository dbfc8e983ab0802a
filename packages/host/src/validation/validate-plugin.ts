import type { ToolCall, ToolDefinition } from "@toolgate/plugin-sdk";
import { PluginFieldsSchema } from "@toolgate/plugin-sdk/host";
import * as v from "valibot";
import { collectHooks, type HookBinding } from "./collect-hooks.js";
import { describeType } from "./describe-type.js";
import { readField } from "./read-field.js";
import { readTools } from "./read-tools.js";
import { summarizeIssues } from "../schema-messages/summarize-issues.js";

/**
 * A plugin as the host holds it: every field read once from the author's object, so a getter that answers
 * differently later, or throws, changes nothing after loading.
 */
export interface PluginSnapshot {
  readonly name: string;
  readonly version: string | undefined;
  readonly description: string | undefined;
  readonly order: number;
  readonly hooks: readonly HookBinding[];
  readonly tools: Readonly<Record<string, ToolDefinition>>;
  /** The optional diagnostic for `toolgate explain`, called with `this` set to the author's object. */
  readonly explain: ((call: ToolCall) => unknown) | undefined;
}

export type ValidationResult = { ok: true; plugin: PluginSnapshot; warnings: string[] } | { ok: false; reason: string };

const scalarFields = ["name", "version", "description", "order"] as const;

/** Checks a plugin's shape; unknown hook names are warnings that suggest the closest valid name. */
export function validatePlugin(candidate: unknown): ValidationResult {
  if (typeof candidate !== "object" || candidate === null || Array.isArray(candidate))
    return { ok: false, reason: `expected a plugin object, got ${describeType(candidate)}` };
  const fields: Record<string, unknown> = {};
  for (const key of [...scalarFields, "hooks", "tools", "explain"]) {
    const read = readField(candidate, key, key);
    if (!read.ok) return read;
    // Left out when undefined, so that a missing name reads "name is required".
    if (read.value !== undefined) fields[key] = read.value;
  }
  const parsed = v.safeParse(PluginFieldsSchema, fields);
  if (!parsed.success) return { ok: false, reason: summarizeIssues(parsed.issues) };
  const hooks = collectHooks(fields.hooks);
  if (!hooks.ok) return hooks;
  const tools = readTools(fields.tools);
  if (!tools.ok) return tools;
  const { name, version, description, order } = parsed.output;
  const explain = fields.explain;
  if (explain !== undefined && typeof explain !== "function") return { ok: false, reason: `explain must be a function, got ${describeType(explain)}` };
  const boundExplain = explain === undefined ? undefined : (call: ToolCall) => (explain as (call: ToolCall) => unknown).call(candidate, call);
  const plugin: PluginSnapshot = Object.freeze({
    name,
    version,
    description,
    order: order ?? 0,
    hooks: hooks.hooks,
    tools: tools.tools,
    explain: boundExplain,
  });
  return { ok: true, plugin, warnings: hooks.warnings };
}
