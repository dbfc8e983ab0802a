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

/** The same input as `TOOLGATE_*` variables; structured values are JSON. */
export function hookInputEnv(input: HookInput): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    env[`TOOLGATE_${key.toUpperCase()}`] = typeof value === "string" ? value : JSON.stringify(value);
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
