import type { ToolCall, Verdict } from "@toolgate/plugin-sdk";
import type { AgentName, AgentProtocol, HookAnswer, HookRequest } from "./agent-protocol.js";
import { HookInputError, optionalString, parseJsonOrUndefined, requireArgs, requireObject, requireString, toolResultOf } from "./hook-input.js";
import { matcherGroupSettings } from "./hook-settings.js";
import { kindOfTool } from "@toolgate/host";
import { askReason, blockReason, hasRewrittenArgs } from "./verdict-text.js";

interface ClaudeStyleOptions {
  name: AgentName;
  settingsFile: string;
  matcher?: string;
  /** The agent enforces `permissionDecision: "ask"`; when not, an ask is answered with a deny. */
  enforcesAsk: boolean;
  /** The agent applies `updatedInput`; when not, rewritten arguments are answered with a deny. */
  appliesUpdatedInput: boolean;
  /** The event for a tool that ran and failed, if the agent has one: a post-tool call with `status: "error"`. */
  failureEvent?: string;
}

/**
 * The protocol Claude Code defined and Codex follows: `PreToolUse` / `PostToolUse` with `tool_name`,
 * `tool_input`, `tool_use_id`; the answer in `hookSpecificOutput.permissionDecision`.
 */
export function claudeStyleProtocol(options: ClaudeStyleOptions): AgentProtocol {
  const { name } = options;
  const handledEvents = ["PreToolUse", "PostToolUse", ...(options.failureEvent === undefined ? [] : [options.failureEvent])];
  const preAnswer = (decision: "allow" | "deny" | "ask", reason: string | undefined, updatedInput?: Record<string, unknown>): HookAnswer => ({
    body: {
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: decision,
        ...(reason === undefined ? {} : { permissionDecisionReason: reason }),
        ...(updatedInput === undefined ? {} : { updatedInput }),
      },
    },
    // A deny does not rest on stdout, which a plugin (or a child it starts) could spoil by writing to
    // file descriptor 1: exit code 2 blocks the call with stderr as the reason, and stdout is then ignored.
    ...(decision === "deny" ? { exitCode: 2, stderr: reason ?? "toolgate denied this call" } : { exitCode: 0 }),
  });

  return {
    name,
    events: { pre: "PreToolUse", post: "PostToolUse" },
    parseInput(raw): HookRequest {
      const input = requireObject(name, raw);
      const event = requireString(name, input, "hook_event_name");
      if (event !== "PreToolUse" && event !== "PostToolUse" && event !== options.failureEvent)
        throw new HookInputError(name, `hook_event_name "${event}" is not one of ${handledEvents.join(", ")}; install the hook on those events only`);
      const toolName = requireString(name, input, "tool_name");
      const call: ToolCall = {
        id: optionalString(input, "tool_use_id") ?? `${name}-call`,
        name: toolName,
        args: requireArgs(name, input, "tool_input"),
        kind: kindOfTool(toolName, { agent: name }),
      };
      const cwd = optionalString(input, "cwd");
      const sessionId = optionalString(input, "session_id");
      if (event === "PreToolUse") return { event: "pre", cwd, sessionId, call };
      if (event === options.failureEvent) return { event: "post", cwd, sessionId, call, result: toolResultOf(call.id, toolName, input.error, true) };
      return { event: "post", cwd, sessionId, call, result: toolResultOf(call.id, toolName, input.tool_response, false) };
    },
    answerPre(verdict: Verdict, call: ToolCall): HookAnswer {
      if (verdict.action === "block") return preAnswer("deny", blockReason(verdict));
      if (verdict.action === "ask")
        return options.enforcesAsk
          ? preAnswer("ask", askReason(verdict))
          : preAnswer("deny", `${askReason(verdict)} (${name} hooks cannot ask, so toolgate denies)`);
      if (hasRewrittenArgs(verdict, call)) {
        if (!options.appliesUpdatedInput)
          return preAnswer(
            "deny",
            `toolgate plugins rewrote the arguments of this call, and ${name} hooks cannot apply rewritten arguments, so toolgate denies it`,
          );
        return preAnswer("allow", "arguments rewritten by toolgate plugins", { ...verdict.args });
      }
      // No plugin had an opinion: the agent's own permission rules still apply.
      if (verdict.plugin === undefined) return { body: {}, exitCode: 0 };
      return preAnswer("allow", verdict.message ?? `allowed by plugin "${verdict.plugin}"`);
    },
    answerPost: () => ({ body: {}, exitCode: 0 }),
    denyForFailure(reason, event) {
      const text = `toolgate denied this call because it could not decide: ${reason}`;
      if (event === "pre") return preAnswer("deny", text);
      if (event === "post") return { body: { decision: "block", reason: text }, exitCode: 0 };
      // Exit code 2 blocks whatever the event was and hands stderr to the model; stdout is then ignored.
      return preAnswer("deny", text);
    },
    // Exit code 2 is a blocking deny whatever the event; any other failure would let the tool run.
    startFailureFallback: "exit 2",
    settings: matcherGroupSettings({
      agent: name,
      file: options.settingsFile,
      events: handledEvents,
      ...(options.matcher === undefined ? {} : { matcher: options.matcher }),
    }),
    sampleInput: (cwd) => ({
      session_id: "toolgate-doctor",
      transcript_path: "",
      cwd,
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "echo toolgate doctor" },
      tool_use_id: "toolu_toolgate_doctor",
    }),
    isPreAnswer(stdout, exitCode) {
      if (exitCode === 2) return true;
      const answer = parseJsonOrUndefined(stdout);
      if (exitCode !== 0 || typeof answer !== "object" || answer === null) return false;
      const specific = (answer as { hookSpecificOutput?: { hookEventName?: unknown; permissionDecision?: unknown } }).hookSpecificOutput;
      if (specific === undefined) return true;
      return specific.hookEventName === "PreToolUse" && ["allow", "deny", "ask", undefined].includes(specific.permissionDecision as string);
    },
  };
}
