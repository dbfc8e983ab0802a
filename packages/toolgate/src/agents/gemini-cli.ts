import type { ToolCall, Verdict } from "@toolgate/plugin-sdk";
import type { AgentProtocol, HookAnswer, HookRequest } from "./agent-protocol.js";
import {
  HookInputError,
  optionalString,
  parseJsonOrUndefined,
  requireArgs,
  requireObject,
  requireString,
  syntheticCallId,
  toolResultOf,
} from "./hook-input.js";
import { matcherGroupSettings } from "./hook-settings.js";
import { kindOfTool } from "@toolgate/host";
import { askReason, blockReason, hasRewrittenArgs, removedArgs } from "./verdict-text.js";

const name = "gemini-cli";

/**
 * A deny that does not rest on stdout, which a plugin (or a child it starts) could spoil by writing to file
 * descriptor 1: exit code 2 blocks the tool with stderr as the reason, whatever stdout holds.
 */
const deny = (reason: string): HookAnswer => ({ body: { decision: "deny", reason }, exitCode: 2, stderr: reason });

/**
 * Gemini CLI: command hooks in `.gemini/settings.json`, events `BeforeTool` and `AfterTool`, answers in
 * `decision` / `reason`, rewritten arguments in `hookSpecificOutput.tool_input` (merged over the model's).
 */
export const geminiCli: AgentProtocol = {
  name,
  events: { pre: "BeforeTool", post: "AfterTool" },
  parseInput(raw): HookRequest {
    const input = requireObject(name, raw);
    const event = requireString(name, input, "hook_event_name");
    if (event !== "BeforeTool" && event !== "AfterTool")
      throw new HookInputError(name, `hook_event_name "${event}" is not BeforeTool or AfterTool; install the hook on those events only`);
    const toolName = requireString(name, input, "tool_name");
    const isMcp = typeof input.mcp_context === "object" && input.mcp_context !== null;
    const call: ToolCall = {
      id: syntheticCallId(name),
      name: toolName,
      args: requireArgs(name, input, "tool_input"),
      kind: kindOfTool(toolName, { agent: name, mcp: isMcp }),
    };
    const cwd = optionalString(input, "cwd");
    const sessionId = optionalString(input, "session_id");
    if (event === "BeforeTool") return { event: "pre", cwd, sessionId, call };
    const response = input.tool_response as { llmContent?: unknown; error?: unknown } | undefined;
    const failed = response?.error !== undefined && response.error !== null;
    return { event: "post", cwd, sessionId, call, result: toolResultOf(call.id, toolName, response?.llmContent ?? response, failed) };
  },
  answerPre(verdict: Verdict, call: ToolCall): HookAnswer {
    if (verdict.action === "block") return deny(blockReason(verdict));
    // Gemini CLI documents no way for a hook to ask the user, so an ask stays closed.
    if (verdict.action === "ask") return deny(`${askReason(verdict)} (Gemini CLI hooks cannot ask, so toolgate denies)`);
    if (hasRewrittenArgs(verdict, call)) {
      const removed = removedArgs(verdict, call);
      // Gemini merges tool_input over the model's arguments, so a removed key would survive the merge.
      if (removed.length > 0)
        return deny(`toolgate plugins removed the argument(s) ${removed.join(", ")}, which Gemini CLI hooks cannot remove, so toolgate denies`);
      return { body: { hookSpecificOutput: { hookEventName: "BeforeTool", tool_input: { ...verdict.args } } }, exitCode: 0 };
    }
    return verdict.plugin === undefined
      ? { body: {}, exitCode: 0 }
      : { body: { decision: "allow", reason: verdict.message ?? `allowed by plugin "${verdict.plugin}"` }, exitCode: 0 };
  },
  answerPost: () => ({ body: {}, exitCode: 0 }),
  // Exit code 2 blocks the tool (or hides its result) with stderr as the reason, whatever the event.
  denyForFailure: (reason) => deny(`toolgate denied this call because it could not decide: ${reason}`),
  startFailureFallback: "exit 2",
  settings: matcherGroupSettings({ agent: name, file: ".gemini/settings.json", events: ["BeforeTool", "AfterTool"], matcher: ".*" }),
  sampleInput: (cwd) => ({
    session_id: "toolgate-doctor",
    transcript_path: "",
    cwd,
    hook_event_name: "BeforeTool",
    timestamp: new Date().toISOString(),
    tool_name: "run_shell_command",
    tool_input: { command: "echo toolgate doctor" },
  }),
  isPreAnswer(stdout, exitCode) {
    if (exitCode === 2) return true;
    const answer = parseJsonOrUndefined(stdout) as { decision?: unknown } | undefined;
    return exitCode === 0 && typeof answer === "object" && answer !== null && [undefined, "allow", "deny", "block"].includes(answer.decision as string);
  },
};
