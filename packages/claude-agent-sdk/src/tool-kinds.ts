/**
 * The kinds Claude Code's built-in tools map to, so a policy written for shells or file edits covers
 * them: `Bash` is a `shell`, `Edit` an `edit`. The same names as `toolgate hook claude-code` uses.
 */
const kindsByName: Readonly<Record<string, string>> = {
  Bash: "shell",
  BashOutput: "shell",
  KillShell: "shell",
  Edit: "edit",
  MultiEdit: "edit",
  NotebookEdit: "edit",
  Write: "write",
  Read: "read",
  NotebookRead: "read",
  Glob: "read",
  Grep: "read",
  LS: "read",
  WebFetch: "web",
  WebSearch: "web",
};

/** `mcp__<server>__<tool>`: how Claude Code names MCP tools. */
const mcpToolName = /^mcp__.+__.+/;

/** The kind of a Claude Code tool: `mcp` for MCP tools, `function` for the rest (`Task`, `TodoWrite`, …). */
export function kindOfTool(toolName: string, fromMcpServer: boolean): string {
  if (fromMcpServer || mcpToolName.test(toolName)) return "mcp";
  return Object.hasOwn(kindsByName, toolName) ? kindsByName[toolName]! : "function";
}
