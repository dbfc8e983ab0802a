import { claudeStyleProtocol } from "./claude-style.js";

/**
 * Claude Code: command hooks in `.claude/settings.json`, events `PreToolUse` and `PostToolUse`, matcher
 * `"*"` for every tool. It enforces `allow`, `deny`, `ask` and `updatedInput`.
 */
export const claudeCode = claudeStyleProtocol({
  name: "claude-code",
  settingsFile: ".claude/settings.json",
  matcher: "*",
  enforcesAsk: true,
  appliesUpdatedInput: true,
});
