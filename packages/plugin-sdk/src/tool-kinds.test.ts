import { describe, expect, it } from "vitest";
import { isShellCall } from "./shell-calls.js";
import { agentToolKinds, kindOfTool, shellToolNames, toolKindAgents } from "./tool-kinds.js";

describe("kindOfTool", () => {
  it.each([
    ["Bash", "shell"],
    ["bash", "shell"],
    ["BASH", "shell"],
    ["run_shell_command", "shell"],
    ["shell", "shell"],
    ["run_terminal_cmd", "shell"],
    ["terminal", "shell"],
    ["execute_command", "shell"],
    ["Edit", "edit"],
    ["MultiEdit", "edit"],
    ["NotebookEdit", "edit"],
    ["replace", "edit"],
    ["apply_patch", "edit"],
    ["Write", "write"],
    ["write_file", "write"],
    ["Read", "read"],
    ["grep_search", "read"],
    ["WebFetch", "web"],
    ["mcp__github__create_issue", "mcp"],
    ["Task", "function"],
    ["mcp__", "function"],
  ])("%s is %s", (name, kind) => {
    expect(kindOfTool(name)).toBe(kind);
  });

  it("a tool the agent says is from an MCP server is mcp, whatever its name", () => {
    expect(kindOfTool("search", { mcp: true })).toBe("mcp");
  });

  it("an agent's own names give their kinds, and a name it does not list falls back to the shared table", () => {
    for (const agent of toolKindAgents)
      for (const [name, kind] of Object.entries(agentToolKinds[agent])) expect(kindOfTool(name, { agent }), `${agent} ${name}`).toBe(kind);
    expect(kindOfTool("run_terminal_cmd", { agent: "claude-code" })).toBe("shell");
    expect(kindOfTool("TodoWrite", { agent: "claude-code" })).toBe("function");
  });

  it("an agent the table does not know is an error naming the known ones", () => {
    expect(() => kindOfTool("Bash", { agent: "claude" })).toThrow(
      'unknown agent "claude": the tool-kind table knows claude-code, gemini-cli, codex, copilot-cli',
    );
  });

  it("no name means two kinds: the agents agree wherever their names meet", () => {
    const seen = new Map<string, string>();
    for (const kinds of Object.values(agentToolKinds))
      for (const [name, kind] of Object.entries(kinds)) {
        expect(seen.get(name.toLowerCase()) ?? kind, name).toBe(kind);
        seen.set(name.toLowerCase(), kind);
      }
  });

  it("isShellCall reads the same table: every shell row is a shell call, and nothing else is by name", () => {
    for (const name of shellToolNames) expect(isShellCall({ name }), name).toBe(true);
    for (const kinds of Object.values(agentToolKinds))
      for (const [name, kind] of Object.entries(kinds)) expect(isShellCall({ name }), name).toBe(kind === "shell");
  });
});
