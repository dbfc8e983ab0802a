import { nearestKey } from "@toolgate/plugin-sdk";
import type { BaseIssue } from "valibot";

/**
 * One line for the first few valibot issues: `hooks.pre_tool_call: each hook must be a function`.
 * `prefix` names where the checked value sits (`tools.search`).
 */
export function summarizeIssues(issues: readonly BaseIssue<unknown>[], limit = 3, prefix = ""): string {
  const lines = issues.slice(0, limit).map((issue) => describeIssue(issue, prefix));
  const more = issues.length > limit ? ` (and ${issues.length - limit} more)` : "";
  return lines.join("; ") + more;
}

function describeIssue(issue: BaseIssue<unknown>, prefix: string): string {
  const path = formatPath(issue, prefix);
  if (issue.received === "undefined" && issue.message.startsWith("Invalid key")) return `${path || "a key"} is required`;
  const message = withSuggestion(issue, issue.message.startsWith("Invalid ") ? `expected ${issue.expected}, got ${issue.received}` : issue.message);
  if (!path) return message;
  // Our own messages read as a predicate of the field ("must be a string"); valibot's as a statement.
  return /^(must|is) /.test(message) ? `${path} ${message}` : `${path}: ${message}`;
}

function formatPath(issue: BaseIssue<unknown>, prefix: string): string {
  let text = prefix;
  for (const item of issue.path ?? []) {
    const key = item.key;
    if (typeof key === "number") text += `[${key}]`;
    else text += text ? `.${String(key)}` : String(key);
  }
  return text;
}

/** The first issue only, for a value that should have matched one of several shapes. */
export function validationMessage(issues: readonly BaseIssue<unknown>[]): string {
  return summarizeIssues(issues, 1);
}

/**
 * An unknown key of a strict object, whose message lists the known keys in parentheses
 * (`is not a config key (plugins, pluginsDir, …)`), gets the nearest of them: `did you mean "plugins"?`.
 */
function withSuggestion(issue: BaseIssue<unknown>, message: string): string {
  const key = issue.path?.at(-1)?.key;
  const known = /\(([^()]+)\)$/.exec(message)?.[1]?.split(", ");
  if (issue.type !== "strict_object" || typeof key !== "string" || known === undefined) return message;
  const nearest = nearestKey(key, known);
  return nearest === undefined ? message : `${message}; did you mean "${nearest}"?`;
}
