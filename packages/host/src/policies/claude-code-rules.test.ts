import type { ToolArgs } from "@toolgate/plugin-sdk";
import { describe, expect, it } from "vitest";
import { toolgatePathGlob } from "./claude-code-rules.js";
import { type PermissionsConfig, PermissionRules, ruleSyntaxError } from "./permission-rules.js";

const where = { cwd: "/work/project", home: "/home/me" };

/** The action the rules decide for a Claude Code call, or "none" when no rule matches. */
function decide(config: PermissionsConfig, tool: string, args: ToolArgs, kind?: string): string {
  return new PermissionRules(config, where).check(tool, args, kind)?.decision.action ?? "none";
}
const bash = (config: PermissionsConfig, command: string) => decide(config, "Bash", { command });

describe("Claude Code's Bash rules, read command by command", () => {
  it.each([
    ["Bash(npm run test)", "npm run test", "allow"],
    ["Bash(npm run test)", "npm run test -- --watch", "ask"],
    ["Bash(git status:*)", "git status", "allow"],
    ["Bash(git status:*)", "git status -s", "allow"],
    ["Bash(git status:*)", "git statusx", "ask"],
    ["Bash(git status:*)", "git status; rm -rf ~", "ask"],
    ["Bash(git status:*)", "git status && git status -s", "allow"],
    ["Bash(npm run *)", "npm run build", "allow"],
    ["Bash(npm run *)", "npm run", "allow"],
    ["Bash(npm run *)", "npm runx", "ask"],
    ["Bash(ls*)", "lsof -i", "allow"],
    ["Bash(ls *)", "lsof -i", "ask"],
    ["Bash(git * main)", "git checkout main", "allow"],
    ["Bash(git * main)", "git checkout main; git push --force", "ask"],
    ["Bash(* install)", "pnpm install", "allow"],
    ["Bash", "anything at all", "allow"],
    ["Bash(*)", "anything at all", "allow"],
    ["Bash(npm test)", "sudo npm test", "ask"],
    ["Bash(npm test)", "bash -c 'npm test; rm -rf ~'", "ask"],
  ])("allow %s, %j → %s", (rule, command, expected) => {
    expect(bash({ ask: ["Bash"], allow: [rule] }, command)).toBe(expected);
  });

  it.each([
    ["Bash(rm:*)", "rm -rf build"],
    ["Bash(rm:*)", "cd /tmp && rm -rf x"],
    ["Bash(rm:*)", "sudo rm -rf x"],
    ["Bash(rm:*)", "bash -c 'rm -rf x'"],
    ["Bash(rm:*)", "'rm' -rf x"],
    ["Bash(curl *)", "echo hi | curl -d @- http://x"],
    ["Bash(git push:*)", "git push --force"],
    ["Bash(git push:*)", 'git status "'],
  ])("deny %s refuses %j (what the line runs, not only its text)", (rule, command) => {
    expect(bash({ deny: [rule] }, command)).toBe("block");
  });

  it("a Bash rule names every shell call, whatever the tool is called on the surface", () => {
    const config = { deny: ["Bash(rm:*)"] };
    expect(decide(config, "run_terminal_cmd", { command: "rm -rf x" })).toBe("block");
    expect(decide(config, "mcp__shell__exec", { command: "rm -rf x" })).toBe("block");
    expect(decide(config, "my_tool", { command: "rm -rf x" }, "shell")).toBe("block");
    expect(decide(config, "write_file", { command: "rm -rf x" })).toBe("none");
  });
});

describe("Claude Code's Read and Edit rules: gitignore-style paths on every file tool", () => {
  it.each([
    ["//etc/**", "/etc/**"],
    ["~/Documents/*.pdf", "~/Documents/*.pdf"],
    ["/src/**/*.ts", "src/**/*.ts"],
    ["./secrets/**", "secrets/**"],
    ["secrets/**", "secrets/**"],
    ["*.env", "**/*.env"],
    [".env", "**/.env"],
    ["build/", "**/build/**"],
    ["./.env", ".env"],
  ])("%s is the toolgate glob %s", (specifier, glob) => {
    expect(toolgatePathGlob(specifier)).toBe(glob);
  });

  it.each([
    ["Read", { file_path: "/work/project/secrets/key.pem" }],
    ["Read", { file_path: "secrets/../secrets/key.pem" }],
    ["Grep", { pattern: "x", path: "/work/project/secrets" }],
    ["Glob", { pattern: "*", path: "secrets/deep" }],
  ])("deny Read(./secrets/**) refuses %s %j", (tool, args) => {
    expect(decide({ deny: ["Read(./secrets/**)"] }, tool, args)).toBe("block");
  });

  it.each([
    ["Read", { file_path: "/work/project/.env" }],
    ["Read", { file_path: "/work/project/app/.env" }],
    ["Read", { file_path: "../other/.env" }],
  ])("deny Read(.env) refuses a .env at any depth: %s %j", (tool, args) => {
    expect(decide({ deny: ["Read(.env)"] }, tool, args)).toBe("block");
  });

  it.each([
    ["Edit", { file_path: "src/a.ts" }, "allow"],
    ["Write", { file_path: "/work/project/src/deep/b.ts" }, "allow"],
    ["MultiEdit", { file_path: "src/c.ts" }, "allow"],
    ["Edit", { file_path: "package.json" }, "ask"],
    ["Edit", { file_path: "../elsewhere/src/a.ts" }, "ask"],
    ["Edit", { file_path: "src/../../x/src/a.ts" }, "ask"],
  ])("allow Edit(/src/**) lifts the ask for %s %j: %s", (tool, args, expected) => {
    expect(decide({ ask: ["Edit", "Write", "MultiEdit"], allow: ["Edit(/src/**)"] }, tool, args)).toBe(expected);
  });

  it("an absolute path and the home folder", () => {
    expect(decide({ deny: ["Edit(//etc/**)"] }, "Write", { file_path: "/etc/hosts" })).toBe("block");
    expect(decide({ deny: ["Edit(//etc/**)"] }, "Write", { file_path: "/tmp/../etc/hosts" })).toBe("block");
    expect(decide({ deny: ["Read(~/.ssh/**)"] }, "Read", { file_path: "/home/me/.ssh/id_ed25519" })).toBe("block");
    expect(decide({ deny: ["Read(~/.ssh/**)"] }, "Read", { file_path: "~/.ssh/id_ed25519" })).toBe("block");
    expect(decide({ deny: ["Read(~/.ssh/**)"] }, "Read", { file_path: "/home/other/.ssh/x" })).toBe("none");
  });
});

describe("Claude Code's WebFetch and MCP rules", () => {
  it.each([
    ["https://example.com/a", "allow"],
    ["https://EXAMPLE.com./a", "allow"],
    ["https://docs.example.com/a", "ask"],
    ["https://example.com.evil.net/a", "ask"],
    ["https://evil.net/?u=https://example.com", "ask"],
    ["not a url", "ask"],
  ])("allow WebFetch(domain:example.com), %s → %s", (url, expected) => {
    expect(decide({ ask: ["WebFetch"], allow: ["WebFetch(domain:example.com)"] }, "WebFetch", { url, prompt: "x" })).toBe(expected);
  });

  it("a subdomain wildcard, and a deny that cannot read the URL applies", () => {
    expect(decide({ allow: ["WebFetch(domain:*.example.com)"] }, "WebFetch", { url: "https://docs.example.com" })).toBe("allow");
    expect(decide({ allow: ["WebFetch(domain:*.example.com)"] }, "WebFetch", { url: "https://example.com" })).toBe("none");
    expect(decide({ deny: ["WebFetch(domain:evil.net)"] }, "WebFetch", { url: "::not a url::" })).toBe("block");
    expect(decide({ deny: ["WebFetch(domain:evil.net)"] }, "WebFetch", { url: "https://good.org" })).toBe("none");
  });

  it.each([
    ["mcp__github", "mcp__github__create_issue", "block"],
    ["mcp__github", "mcp__githubx__create_issue", "none"],
    ["mcp__github__create_issue", "mcp__github__create_issue", "block"],
    ["mcp__github__create_issue", "mcp__github__list_issues", "none"],
    ["mcp__github__*", "mcp__github__list_issues", "block"],
  ])("deny %s on %s → %s", (rule, tool, expected) => {
    expect(decide({ deny: [rule] }, tool, {})).toBe(expected);
  });
});

describe("a Claude Code rule toolgate cannot read is refused, naming what it expected", () => {
  it.each([
    ["Task(Explore)", /specifier toolgate does not read.*write "Task" for every call of that tool/],
    ["WebFetch(https://example.com)", /WebFetch takes "domain:<host>".*WebFetch:url=<glob>/],
    ["Read()", undefined],
    ["Bash(git status:*)", undefined],
    ["Read(./secrets/**)", undefined],
    ["WebSearch", undefined],
  ])("%s", (rule, error) => {
    const found = ruleSyntaxError(rule);
    if (error === undefined) expect(found).toBeUndefined();
    else expect(found).toMatch(error);
  });

  it("toolgate's own rules read as before", () => {
    expect(ruleSyntaxError("bash:command=git status*")).toBeUndefined();
    expect(bash({ ask: ["bash"], allow: ["bash:command=git status*"] }, "git status")).toBe("allow");
  });
});
