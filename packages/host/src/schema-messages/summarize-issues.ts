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
  const message = issue.message.startsWith("Invalid ") ? `expected ${issue.expected}, got ${issue.received}` : issue.message;
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
