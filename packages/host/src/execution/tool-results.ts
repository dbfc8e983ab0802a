import type { PolicySource, ToolCall, ToolResult, Verdict } from "@toolgate/plugin-sdk";
import { describeThrown } from "../errors.js";
import { isProtectionSource } from "../protection/protection-source.js";

/**
 * The text the model reads for a blocked call: names who blocked it (the plugin, or the permission rule
 * or configured hook) and carries its message verbatim, as in
 * `Tool call blocked by plugin "no-root-delete": refusing destructive root delete`. Adapters that run
 * tools themselves hand this to their framework, so every surface words a block alike.
 */
export function blockMessage(verdict: Pick<Verdict, "message" | "plugin" | "source">): string {
  return `Tool call blocked by ${decider(verdict)}: ${verdict.message ?? "blocked"}`;
}

/**
 * The question a human reads for an `ask` the caller hands to its own approval flow: names who asks
 * (as `blockMessage` names who blocks) and carries its message verbatim, as in
 * `Approval needed (plugin "change-control"): deploys need a human`.
 */
export function askMessage(verdict: Pick<Verdict, "message" | "plugin" | "source">): string {
  return `Approval needed (${decider(verdict)}): ${verdict.message ?? "approval needed"}`;
}

function decider({ source, plugin }: Pick<Verdict, "plugin" | "source">): string {
  if (source !== undefined && source.kind !== "plugin") return describeSource(source);
  return plugin === undefined ? "the tool gate" : `plugin "${plugin}"`;
}

function describeSource(source: PolicySource): string {
  if (isProtectionSource(source)) return "toolgate's protection of its own policy (protectPolicy)";
  return source.kind === "rule" ? `permission rule "${source.name}"` : `${source.kind} hook "${source.name}"`;
}

/** A blocked result for a verdict that ended in block: names the plugin and carries its message verbatim. */
export function resultOfBlock(call: ToolCall, verdict: Verdict): ToolResult {
  const result: ToolResult = { callId: call.id, name: call.name, status: "blocked", content: blockMessage(verdict) };
  if (verdict.plugin !== undefined) result.blockedBy = verdict.plugin;
  return result;
}

export function errorResult(call: ToolCall, content: string): ToolResult {
  return { callId: call.id, name: call.name, status: "error", content };
}

/** A string is the content as is; any other value is `data`, with its JSON as the content. */
export function okResult(call: ToolCall, output: unknown): ToolResult {
  if (typeof output === "string") return { callId: call.id, name: call.name, status: "ok", content: output };
  if (output === undefined) return { callId: call.id, name: call.name, status: "ok", content: "" };
  return { callId: call.id, name: call.name, status: "ok", content: toJson(output), data: output };
}

/**
 * JSON of a tool's output, whatever it holds: a BigInt becomes its digits, an object met again inside
 * itself becomes "[Circular]", and a value that cannot be read at all (a throwing getter or Proxy)
 * gives a short note instead of a rejection. The model always gets text.
 */
function toJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    // Cycles and BigInts: the slower, forgiving pass below.
  }
  try {
    return JSON.stringify(value, jsonSafeReplacer()) ?? String(value);
  } catch (error) {
    return `[a value that cannot be serialised: ${describeThrown(error)}]`;
  }
}

function jsonSafeReplacer(): (this: unknown, key: string, value: unknown) => unknown {
  // The objects on the path from the root to the value being written: met again, it is a cycle.
  const path: unknown[] = [];
  return function (this: unknown, _key, value) {
    if (typeof value === "bigint") return value.toString();
    if (typeof value !== "object" || value === null) return value;
    while (path.length > 0 && path[path.length - 1] !== this) path.pop();
    if (path.includes(value)) return "[Circular]";
    path.push(value);
    return value;
  };
}
