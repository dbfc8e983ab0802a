import { closest, distance } from "fastest-levenshtein";
import * as v from "valibot";

/**
 * The known key nearest to a mistyped one (`alow` → `allow`), or undefined when none is close enough
 * to be what was meant. One rule for every "did you mean": config keys, host options, plugin options.
 */
export function nearestKey(key: string, known: readonly string[]): string | undefined {
  if (known.length === 0) return undefined;
  const nearest = closest(key, [...known]);
  return distance(key.toLowerCase(), nearest.toLowerCase()) <= Math.max(2, Math.floor(key.length / 3)) ? nearest : undefined;
}

/**
 * The error a plugin factory throws for options its valibot `schema` rejects: the plugin, the option and
 * what was wrong (`rate-limit: option "windowMs": windowMs must be a number (got string)`); an unknown key
 * of a strict object schema gets the nearest known key, `did you mean "max"?`.
 */
export function optionsError(pluginName: string, schema: v.GenericSchema, issue: v.BaseIssue<unknown>): Error {
  const path = v.getDotPath(issue);
  const where = path === null ? "options" : `option "${path}"`;
  // A strict object reports a missing required key as its unknown-key issue, received undefined.
  if (issue.type === "strict_object" && issue.received === "undefined") return new Error(`${pluginName}: ${where} is required`);
  return new Error(`${pluginName}: ${where}: ${issue.message} (got ${issue.received})${suggestion(schema, issue)}`);
}

function suggestion(schema: v.GenericSchema, issue: v.BaseIssue<unknown>): string {
  const key = issue.path?.at(-1)?.key;
  if (issue.type !== "strict_object" || typeof key !== "string") return "";
  const nearest = nearestKey(key, knownKeys(schema, issue));
  return nearest === undefined ? "" : `; did you mean "${nearest}"?`;
}

/** The keys of the object that holds the unknown key: the schema's own entries, walked down the issue's path. */
function knownKeys(schema: v.GenericSchema, issue: v.BaseIssue<unknown>): string[] {
  let current: unknown = schema;
  for (const item of (issue.path ?? []).slice(0, -1)) {
    current = unwrap(current);
    const entries = (current as { entries?: Record<string, unknown> }).entries;
    const element = (current as { item?: unknown }).item;
    current = typeof item.key === "string" && entries ? entries[item.key] : element;
  }
  const entries = (unwrap(current) as { entries?: Record<string, unknown> } | undefined)?.entries;
  return entries ? Object.keys(entries) : [];
}

/** Through `optional(...)` to the schema that has the entries (a piped schema carries its base's entries). */
function unwrap(schema: unknown): unknown {
  let current = schema as { wrapped?: unknown; entries?: unknown; item?: unknown } | undefined;
  while (current && current.entries === undefined && current.item === undefined && current.wrapped !== undefined) current = current.wrapped as typeof current;
  return current;
}
