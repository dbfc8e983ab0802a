import { hookNames, isHookName, PluginSchema, type Plugin } from "@toolgate/plugin-sdk";
import { closest } from "fastest-levenshtein";
import * as v from "valibot";
import { summarizeIssues } from "./summarize-issues.js";

export type ValidationResult =
  | { ok: true; plugin: Plugin; warnings: string[] }
  | { ok: false; reason: string };

/** Checks a plugin's shape; unknown hook names are warnings that suggest the closest valid name. */
export function validatePlugin(candidate: unknown): ValidationResult {
  if (typeof candidate !== "object" || candidate === null || Array.isArray(candidate))
    return { ok: false, reason: `expected a plugin object, got ${describeType(candidate)}` };
  const parsed = v.safeParse(PluginSchema, candidate);
  if (!parsed.success) return { ok: false, reason: summarizeIssues(parsed.issues) };
  // valibot's object() returns a copy without unknown keys; keep the author's object so `this` works in hooks.
  const plugin = candidate as Plugin;
  return { ok: true, plugin, warnings: unknownHookWarnings(plugin) };
}

function unknownHookWarnings(plugin: Plugin): string[] {
  return Object.keys(plugin.hooks ?? {})
    .filter((name) => !isHookName(name))
    .map((name) => `unknown hook "${name}"; did you mean "${closest(name, hookNames)}"? It will never be called`);
}

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value;
}
