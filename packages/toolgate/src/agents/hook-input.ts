import type { ToolResult } from "@toolgate/plugin-sdk";
import { isPlainObject } from "@toolgate/plugin-sdk/host";

/** The agent's hook input is not what its protocol says: the hook denies, naming the field. */
export class HookInputError extends Error {
  constructor(agent: string, problem: string) {
    super(`${agent} hook input: ${problem}`);
    this.name = "HookInputError";
  }
}

export function requireObject(agent: string, input: unknown): Record<string, unknown> {
  if (!isPlainObject(input)) throw new HookInputError(agent, "must be a JSON object");
  return input as Record<string, unknown>;
}

export function requireString(agent: string, input: Record<string, unknown>, field: string): string {
  const value = input[field];
  if (typeof value !== "string" || value === "") throw new HookInputError(agent, `"${field}" must be a non-empty string`);
  return value;
}

export function optionalString(input: Record<string, unknown>, field: string): string | undefined {
  const value = input[field];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** Tool arguments: an object, or (Copilot CLI) a JSON string holding one. */
export function requireArgs(agent: string, input: Record<string, unknown>, field: string): Record<string, unknown> {
  let value = input[field];
  if (typeof value === "string") {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      throw new HookInputError(agent, `"${field}" is a string but not JSON`);
    }
  }
  if (value === undefined || value === null) return {};
  if (!isPlainObject(value)) throw new HookInputError(agent, `"${field}" must be an object`);
  return value as Record<string, unknown>;
}

/** A tool's output as an agent reports it, as the `ToolResult` that `post_tool_call` hooks receive. */
export function toolResultOf(callId: string, name: string, response: unknown, failed: boolean): ToolResult {
  const content = typeof response === "string" ? response : (JSON.stringify(response) ?? "");
  const result: ToolResult = { callId, name, status: failed ? "error" : "ok", content };
  return typeof response === "string" || response === undefined ? result : { ...result, data: response };
}

/** A call id for agents whose input carries none. */
export function syntheticCallId(agent: string): string {
  return `${agent}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Parses one JSON document; `undefined` when it is not JSON. */
export function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
