import type { ToolCall, Verdict } from "@toolgate/plugin-sdk";
import { isPlainObject } from "@toolgate/plugin-sdk/host";
import type { AgentProtocol, AgentSettings, HookAnswer, HookRequest } from "./agent-protocol.js";
import { optionalString, parseJsonOrUndefined, requireArgs, requireObject, requireString, syntheticCallId, toolResultOf } from "./hook-input.js";
import { isToolgateCommand } from "./hook-settings.js";
import { kindOfTool } from "@toolgate/host";
import { askReason, blockReason, hasRewrittenArgs } from "./verdict-text.js";

const name = "copilot-cli";

/**
 * A deny exits with code 2 as well as printing its JSON. Copilot CLI's documentation describes only the
 * JSON; what its 1.0.102 does (seen in the e2e tests' harness): JSON `deny` with exit code 2 denies and
 * the model reads the JSON's reason; any non-zero exit denies whatever stdout holds; but a line a plugin
 * wrote to file descriptor 1 ahead of a JSON deny with exit code 0 lets the tool run.
 */
const decide = (permissionDecision: "allow" | "deny" | "ask", permissionDecisionReason: string, modifiedArgs?: Record<string, unknown>): HookAnswer => ({
  body: { permissionDecision, permissionDecisionReason, ...(modifiedArgs === undefined ? {} : { modifiedArgs }) },
  ...(permissionDecision === "deny" ? { exitCode: 2, stderr: permissionDecisionReason } : { exitCode: 0 }),
});

/**
 * Copilot CLI: `.github/hooks/*.json` (`version: 1`), events `preToolUse` / `postToolUse`. The input is
 * camelCase, `toolArgs` a JSON string or an object; it names no event, so a `toolResult` marks the post-tool input.
 * The VS Code-compatible snake_case input (`tool_name`, `tool_input`) is read too.
 */
export const copilotCli: AgentProtocol = {
  name,
  events: { pre: "preToolUse", post: "postToolUse" },
  parseInput(raw): HookRequest {
    const input = requireObject(name, raw);
    const snake = input.toolName === undefined && input.tool_name !== undefined;
    const toolName = requireString(name, input, snake ? "tool_name" : "toolName");
    const args = requireArgs(name, input, snake ? "tool_input" : "toolArgs");
    const call: ToolCall = { id: syntheticCallId(name), name: toolName, args, kind: kindOfTool(toolName, { agent: name }) };
    const cwd = optionalString(input, "cwd");
    const sessionId = optionalString(input, snake ? "session_id" : "sessionId");
    const result = snake ? input.tool_response : input.toolResult;
    const isPost = snake ? input.hook_event_name === "PostToolUse" : result !== undefined;
    if (!isPost) return { event: "pre", cwd, sessionId, call };
    const reported = isPlainObject(result) ? (result as { resultType?: unknown; textResultForLlm?: unknown }) : undefined;
    const failed = reported?.resultType === "failure" || reported?.resultType === "denied";
    return { event: "post", cwd, sessionId, call, result: toolResultOf(call.id, toolName, reported?.textResultForLlm ?? result, failed) };
  },
  answerPre(verdict: Verdict, call: ToolCall): HookAnswer {
    if (verdict.action === "block") return decide("deny", blockReason(verdict));
    if (verdict.action === "ask") return decide("ask", askReason(verdict));
    if (hasRewrittenArgs(verdict, call)) return decide("allow", "arguments rewritten by toolgate plugins", { ...verdict.args });
    return verdict.plugin === undefined ? { body: {}, exitCode: 0 } : decide("allow", verdict.message ?? `allowed by plugin "${verdict.plugin}"`);
  },
  answerPost: () => ({ body: {}, exitCode: 0 }),
  denyForFailure: (reason) => decide("deny", `toolgate denied this call because it could not decide: ${reason}`),
  // Exit code 2 is the hook's own deny, its JSON already printed: a second document would make stdout
  // unreadable. Any other failure prints the deny. Either way exit code 2, which Copilot CLI denies on.
  startFailureFallback: `{ [ $? -eq 2 ] || echo '${JSON.stringify({ permissionDecision: "deny", permissionDecisionReason: "toolgate denied this call because its hook failed to start (run toolgate doctor)" })}'; exit 2; }`,
  settings: copilotSettings(),
  sampleInput: (cwd) => ({ timestamp: Date.now(), cwd, toolName: "bash", toolArgs: JSON.stringify({ command: "echo toolgate doctor" }) }),
  isPreAnswer(stdout, exitCode) {
    const answer = parseJsonOrUndefined(stdout) as { permissionDecision?: unknown } | undefined;
    return exitCode === 0 && typeof answer === "object" && answer !== null && [undefined, "allow", "deny", "ask"].includes(answer.permissionDecision as string);
  },
};

/** toolgate's own file, `.github/hooks/toolgate.json`: rewritten whole by `init`, other hook files untouched. */
function copilotSettings(): AgentSettings {
  const entry = (command: string) => [{ type: "command", bash: command, timeoutSec: 30 }];
  return {
    file: ".github/hooks/toolgate.json",
    install: (document, command) => ({
      ...document,
      version: 1,
      hooks: { ...(isPlainObject(document.hooks) ? (document.hooks as object) : {}), preToolUse: entry(command), postToolUse: entry(command) },
    }),
    installedCommands(document) {
      const hooks = isPlainObject(document.hooks) ? (document.hooks as Record<string, unknown>) : {};
      return ["preToolUse", "postToolUse"].flatMap((event) =>
        (Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : [])
          .map((hook) => (isPlainObject(hook) ? (hook as { bash?: unknown }).bash : undefined))
          .filter((command): command is string => isToolgateCommand(command, name)),
      );
    },
  };
}
