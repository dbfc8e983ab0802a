import { claudeStyleProtocol } from "./claude-style.js";

/**
 * Codex: Claude Code's wire format, hooks in `.codex/hooks.json`. Codex enforces `deny` only; `ask`
 * and `updatedInput` are parsed and then ignored (they would fail open), so toolgate answers both with a deny.
 */
export const codex = claudeStyleProtocol({
  name: "codex",
  settingsFile: ".codex/hooks.json",
  enforcesAsk: false,
  appliesUpdatedInput: false,
});
