import type { HookCallback, HookCallbackMatcher, HookJSONOutput, HookInput } from "@anthropic-ai/claude-agent-sdk";
import { askMessage, blockMessage, kindOfTool, type Host, type ToolCall, type ToolResult, type Verdict } from "@toolgate/host";

/** The part of a toolgate host the hooks use: a real `createHost()` value fits. */
export type HookHost = Pick<Host, "checkToolCall" | "postToolCall">;

/** The `hooks` option of the Claude Agent SDK's `query()`, filled with toolgate's callbacks. */
export interface ToolgateHooks {
  PreToolUse: HookCallbackMatcher[];
  PostToolUse: HookCallbackMatcher[];
  PostToolUseFailure: HookCallbackMatcher[];
}

/**
 * Hooks for the Claude Agent SDK's `query({ options: { hooks } })` that put every tool call through the
 * host's plugins, as `toolgate hook claude-code` does for the Claude Code CLI. `PreToolUse` answers
 * `deny` for a block (the model reads the plugin's message), `ask` for an ask the host's `onAsk` did not
 * settle, `allow` with `updatedInput` when plugins rewrote the arguments, `allow` when a plugin allowed
 * explicitly, and nothing (the SDK's own permission rules apply) when no plugin had an opinion.
 * `PostToolUse` and `PostToolUseFailure` run the plugins' `post_tool_call`.
 */
export function toolgateHooks(host: HookHost): ToolgateHooks {
  return {
    // A hook that fails or times out blocks the call: a policy check must not fail open.
    PreToolUse: [{ hooks: [preToolUse(host)], onFailure: "block" }],
    PostToolUse: [{ hooks: [postToolUse(host)] }],
    PostToolUseFailure: [{ hooks: [postToolUse(host)] }],
  };
}

/** Without a tool use id, the host generates one (`toolgate_<uuid>`). */
function callOf(input: { tool_name: string; tool_input: unknown; tool_use_id: string; mcp_server?: unknown }, toolUseId: string | undefined): ToolCall {
  const id = input.tool_use_id || toolUseId;
  const call = {
    name: input.tool_name,
    args: input.tool_input as Record<string, unknown>,
    kind: kindOfTool(input.tool_name, { agent: "claude-code", mcp: input.mcp_server !== undefined }),
  };
  return (id ? { id, ...call } : call) as ToolCall;
}

function preToolUse(host: HookHost): HookCallback {
  return async (input, toolUseId) => {
    if (input.hook_event_name !== "PreToolUse") return {};
    const call = callOf(input, toolUseId);
    let verdict: Verdict;
    try {
      verdict = await host.checkToolCall(call, { resolveAsk: true, surface: "claude-agent-sdk" });
    } catch (error) {
      return preAnswer("deny", `toolgate could not check this call, so it does not run: ${error instanceof Error ? error.message : String(error)}`);
    }
    return answerFor(verdict, call);
  };
}

/** The verdict as Claude's `PreToolUse` answer. */
function answerFor(verdict: Verdict, call: ToolCall): HookJSONOutput {
  if (verdict.action === "block") return preAnswer("deny", blockMessage(verdict));
  if (verdict.action === "ask") return preAnswer("ask", askMessage(verdict));
  if (isRewritten(verdict, call)) return preAnswer("allow", "arguments rewritten by toolgate plugins", { ...verdict.args });
  // No plugin had an opinion: the SDK's own permission rules still apply.
  if (verdict.plugin === undefined) return {};
  return preAnswer("allow", verdict.message ?? `allowed by plugin "${verdict.plugin}"`);
}

function preAnswer(decision: "allow" | "deny" | "ask", reason: string, updatedInput?: Record<string, unknown>): HookJSONOutput {
  return {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: decision,
      permissionDecisionReason: reason,
      ...(updatedInput === undefined ? {} : { updatedInput }),
    },
  };
}

function isRewritten(verdict: Verdict, call: ToolCall): boolean {
  return JSON.stringify(verdict.args) !== JSON.stringify(call.args);
}

function postToolUse(host: HookHost): HookCallback {
  return async (input, toolUseId) => {
    const result = resultOf(input);
    if (result === undefined || (input.hook_event_name !== "PostToolUse" && input.hook_event_name !== "PostToolUseFailure")) return {};
    const call = callOf(input, toolUseId);
    // Observers fail open: a closed host or a malformed call never fails the agent's turn.
    await host.postToolCall(call, { ...result, callId: call.id, name: call.name }).catch(() => undefined);
    return {};
  };
}

function resultOf(input: HookInput): Omit<ToolResult, "callId" | "name"> | undefined {
  if (input.hook_event_name === "PostToolUseFailure") return { status: "error", content: input.error };
  if (input.hook_event_name !== "PostToolUse") return undefined;
  const response = input.tool_response;
  if (typeof response === "string") return { status: "ok", content: response };
  let content: string;
  try {
    content = JSON.stringify(response) ?? "";
  } catch {
    content = String(response);
  }
  return { status: "ok", content, data: response };
}
