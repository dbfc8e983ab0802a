import { describe, expect, it } from "vitest";
import { compileMatcher } from "./matcher.js";

const tools = ["Bash", "bash", "terminal", "Write", "mcp__fs__read_file", "", "a*b"];

describe("compileMatcher", () => {
  it.each([
    // Claude Code's settings: "*", "" or no matcher match every tool.
    [undefined, tools],
    ["", tools],
    ["*", tools],
    [" * ", tools],
    // Otherwise a regular expression over the whole name, in any case (as rules match names).
    ["Bash", ["Bash", "bash"]],
    ["bash|terminal", ["Bash", "bash", "terminal"]],
    ["BASH", ["Bash", "bash"]],
    ["Edit|Write", ["Write"]],
    [".*", tools],
    ["mcp__.*", ["mcp__fs__read_file"]],
    ["bas", []],
    ["a\\*b", ["a*b"]],
    ["a*b", []],
  ] as const)("%j matches %j", (matcher, expected) => {
    const matches = compileMatcher(matcher);
    expect(tools.filter((tool) => matches(tool))).toEqual(expected);
  });
});
