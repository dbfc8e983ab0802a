import { describe, expect, it } from "vitest";
import { kindOfTool } from "./tool-kinds.js";

describe("kindOfTool", () => {
  it.each([
    ["Bash", "shell"],
    ["bash", "shell"],
    ["BASH", "shell"],
    ["run_shell_command", "shell"],
    ["shell", "shell"],
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
    expect(kindOfTool("search", true)).toBe("mcp");
  });
});
