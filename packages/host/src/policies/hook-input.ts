import type { SessionInfo, ToolCall, ToolResult } from "@toolgate/plugin-sdk";

/** What a command, HTTP or model hook receives: Claude Code's and agent-code's hook input, snake_case. */
export interface HookInput {
  hook_event_name: "pre_tool_call" | "post_tool_call";
  tool_name: string;
  tool_input: Readonly<Record<string, unknown>>;
  tool_call_id: string;
  tool_kind: string;
  session_id: string;
  cwd: string;
  tool_response?: { status: ToolResult["status"]; content: string; data?: unknown };
}

export function createHookInput(event: HookInput["hook_event_name"], call: ToolCall, session: SessionInfo, cwd: string, result?: ToolResult): HookInput {
  const input: HookInput = {
    hook_event_name: event,
    tool_name: call.name,
    tool_input: call.args,
    tool_call_id: call.id,
    tool_kind: call.kind ?? "function",
    session_id: session.id,
    cwd,
  };
  if (result !== undefined)
    input.tool_response =
      result.data === undefined ? { status: result.status, content: result.content } : { status: result.status, content: result.content, data: result.data };
  return input;
}

/**
 * The largest value put in a `TOOLGATE_*` variable, in UTF-16 units (at most 3 bytes each in UTF-8). An
 * environment is bounded (Linux: 128 KiB per variable, a few MiB in all, with the arguments), and a
 * process whose environment does not fit never starts (`spawn E2BIG`): a larger value is left out, and
 * the hook reads it from stdin, which has no such limit.
 */
const maxEnvValueLength = 8 * 1024;

/**
 * The same input as `TOOLGATE_*` variables, for hooks that read their environment; structured values are
 * JSON. Only values that fit: one longer than `maxEnvValueLength`, or holding a NUL byte (which no
 * environment can carry), is left out. Whatever the call, the whole input is on stdin.
 */
export function hookInputEnv(input: HookInput): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    const text = typeof value === "string" ? value : JSON.stringify(value);
    if (text.length > maxEnvValueLength || text.includes("\0")) continue;
    env[`TOOLGATE_${key.toUpperCase()}`] = text;
  }
  return env;
}

const maxReasonChars = 2000;
const cutMark = " … [cut]";

/** A hook's reason as the model reads it: trimmed, and cut with a mark when long. */
export function hookReason(text: string): string {
  const trimmed = text.trim();
  return trimmed.length <= maxReasonChars ? trimmed : trimmed.slice(0, maxReasonChars) + cutMark;
}
