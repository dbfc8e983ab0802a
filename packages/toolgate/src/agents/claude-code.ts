import { claudeStyleProtocol } from "./claude-style.js";

/**
 * Claude Code: command hooks in `.claude/settings.json`, events `PreToolUse`, `PostToolUse` and
 * `PostToolUseFailure` (a tool that failed: `post_tool_call` with `status: "error"`), matcher `"*"` for
 * every tool. It enforces `allow`, `deny`, `ask` and `updatedInput`.
 */
export const claudeCode = claudeStyleProtocol({
  name: "claude-code",
  settingsFile: ".claude/settings.json",
  matcher: "*",
  enforcesAsk: true,
  appliesUpdatedInput: true,
  failureEvent: "PostToolUseFailure",
});
