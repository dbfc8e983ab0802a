import type { ToolCall, ToolResult, Verdict } from "@toolgate/plugin-sdk";

/** The result of a call the gate stopped: names the plugin and carries its message verbatim. */
export function blockedResult(call: ToolCall, message: string, plugin: string | undefined): ToolResult {
  const by = plugin === undefined ? "the tool gate" : `plugin "${plugin}"`;
  const result: ToolResult = { callId: call.id, name: call.name, status: "blocked", content: `Tool call blocked by ${by}: ${message}` };
  if (plugin !== undefined) result.blockedBy = plugin;
  return result;
}

/** A blocked result for a verdict that ended in block. */
export function resultOfBlock(call: ToolCall, verdict: Verdict): ToolResult {
  return blockedResult(call, verdict.message ?? "blocked", verdict.plugin);
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

function toJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
