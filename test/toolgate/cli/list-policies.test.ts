import { chmodSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir, removeTempDirs, runCli, writeFiles } from "../../helpers/cli-harness.js";

afterAll(removeTempDirs);

function projectWithPolicies(): string {
  const cwd = makeTempDir("os", "policies-cli-");
  writeFiles(cwd, {
    "toolgate.config.yaml": [
      "pluginsDir: false",
      "hooks:",
      "  pre_tool_call:",
      "    - matcher: terminal",
      "      command: ./guards/no-curl.sh",
      "permissions:",
      "  deny:",
      '    - "terminal:command=*sudo*"',
      "",
    ].join("\n"),
    "guards/no-curl.sh": '#!/bin/sh\ngrep -q curl && { echo "no network from the shell" >&2; exit 2; }\nexit 0\n',
    "calls.jsonl": [
      { id: "c1", name: "terminal", args: { command: "sudo ls" } },
      { id: "c2", name: "terminal", args: { command: "curl example.com" } },
      { id: "c3", name: "terminal", args: { command: "ls" } },
    ]
      .map((call) => JSON.stringify(call))
      .join("\n"),
  });
  chmodSync(join(cwd, "guards/no-curl.sh"), 0o755);
  return cwd;
}

describe("the CLI shows hooks and rules like plugins", () => {
  it("list and check show the command hook and the rules with their kind", async () => {
    const cwd = projectWithPolicies();
    const list = await runCli(["list", "--cwd", cwd]);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/loaded {2}command:\.\/guards\/no-curl\.sh {2}\[command\]/);
    expect(list.stdout).toMatch(/loaded {2}permissions {2}\[rule\]/);
    const check = await runCli(["check", "--cwd", cwd]);
    expect(check.code).toBe(0);
  });

  it("run names the rule and the hook that decided", async () => {
    const cwd = projectWithPolicies();
    const { code, stdout } = await runCli(["run", join(cwd, "calls.jsonl"), "--cwd", cwd]);
    expect(code).toBe(0);
    expect(stdout).toContain("BLOCK by rule terminal:command=*sudo*");
    expect(stdout).toContain("BLOCK by command ./guards/no-curl.sh: no network from the shell");
    expect(stdout).toMatch(/c3 {2}terminal[^\n]*\n {2}ALLOW/);
  });

  it("check fails with the file and key when a hook's program is missing", async () => {
    const cwd = makeTempDir("os", "policies-cli-");
    writeFiles(cwd, { "toolgate.config.json": JSON.stringify({ pluginsDir: false, hooks: { pre_tool_call: [{ command: "./guards/gone.sh" }] } }) });
    const { code, stderr } = await runCli(["check", "--cwd", cwd]);
    expect(code).toBe(1);
    expect(stderr).toContain('toolgate.config.json: hooks.pre_tool_call[0].command "./guards/gone.sh" cannot run');
  });
});
