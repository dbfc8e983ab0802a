import { shellToolNames, type ToolKind } from "@toolgate/plugin-sdk";

/**
 * The kinds a coding agent's tools map to, so one policy covers every agent: `Bash` (Claude Code, Codex),
 * `run_shell_command` (Gemini CLI) and `bash` (Copilot CLI) are all `shell`.
 */
const kindsByName: Record<string, ToolKind> = {};

function name(kind: ToolKind, ...names: string[]): void {
  for (const each of names) kindsByName[each.toLowerCase()] = kind;
}

// The one list of shell tools the permission rules and block-dangerous-shell share.
name("shell", ...shellToolNames);
name("edit", "Edit", "MultiEdit", "NotebookEdit", "replace", "apply_patch", "edit", "str_replace", "str_replace_editor", "edit_file");
name("write", "Write", "write_file", "create", "create_file");
name(
  "read",
  "Read",
  "read_file",
  "read_many_files",
  "view",
  "NotebookRead",
  "Glob",
  "glob",
  "Grep",
  "grep",
  "grep_search",
  "search_file_content",
  "LS",
  "list_directory",
  "ls",
);
name("web", "WebFetch", "WebSearch", "web_fetch", "google_web_search", "fetch");

/** `mcp__<server>__<tool>`: how Claude Code, Gemini CLI and Codex name MCP tools. */
const mcpToolName = /^mcp__.+__.+/;

/**
 * The kind of an agent's tool, by its name in any case; `mcp` for MCP tools; `function` for the rest
 * (an agent's other built-ins, such as Claude Code's `Task` or `TodoWrite`).
 */
export function kindOfTool(toolName: string, isMcp = false): ToolKind {
  if (isMcp || mcpToolName.test(toolName)) return "mcp";
  return kindsByName[toolName.toLowerCase()] ?? "function";
}
