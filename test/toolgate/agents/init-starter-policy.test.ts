import { spawn } from "node:child_process";
import { existsSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { agentNames } from "../../../packages/toolgate/src/agents/agents.js";
import { makeTempDir, removeTempDirs, repoRoot, runCli, writeFiles } from "../../helpers/cli-harness.js";
import { outputOf } from "../../helpers/child-output.js";
import { installToolgateBin } from "../../helpers/hook-harness.js";

afterAll(removeTempDirs);

/** A fresh project with toolgate installed (and the shell guard's package, unless `withGuard` is false). */
function freshProject(files: Record<string, string> = {}, withGuard = true): string {
  const dir = makeTempDir("os", "init-starter-");
  writeFiles(dir, { "package.json": JSON.stringify({ name: "app", private: true }), ...files });
  installToolgateBin(dir);
  if (withGuard) symlinkSync(join(repoRoot, "plugins/block-dangerous-shell"), join(dir, "node_modules/toolgate-plugin-block-dangerous-shell"));
  return dir;
}

/** Runs a line the user would paste, in `dir`, as their shell would. */
function runLine(line: string, dir: string) {
  return outputOf(spawn("sh", ["-c", line], { cwd: dir, env: { ...process.env, npm_config_offline: "true", npm_config_update_notifier: "false" } }));
}

/** The self-test `init` prints: the line after "try it". */
function selfTestOf(stdout: string): string {
  const lines = stdout.split("\n");
  const at = lines.findIndex((line) => line.startsWith("try it"));
  expect(at, stdout).toBeGreaterThanOrEqual(0);
  return lines[at + 1]!.trim();
}

describe("toolgate init in a project with no policy", () => {
  it.each(agentNames)(
    "%s: writes the starter policy, says so, and its printed self-test is denied by the guard",
    async (agent) => {
      const dir = freshProject();
      const init = await runCli(["init", agent, "--cwd", dir]);
      expect(init.code, init.stderr).toBe(0);
      expect(init.stderr).toBe("");
      expect(JSON.parse(readFileSync(join(dir, "toolgate.config.json"), "utf8"))).toEqual({
        plugins: ["toolgate-plugin-block-dangerous-shell"],
        store: "file",
      });
      expect(init.stdout).toContain(
        'added a starter policy in toolgate.config.json: block-dangerous-shell (toolgate-plugin-block-dangerous-shell), store "file"',
      );
      const selfTest = selfTestOf(init.stdout);
      expect(selfTest).toMatch(new RegExp(`^echo '\\{.*rm -rf ~.*\\}' \\| npx toolgate hook ${agent}$`));
      // The README, docs/agents.md and the first-steps page show Claude Code's line as init prints it.
      if (agent === "claude-code")
        for (const doc of ["README.md", "docs/agents.md", "docs/protect-your-coding-agent.md"])
          expect(readFileSync(join(repoRoot, doc), "utf8"), doc).toContain(selfTest);
      const run = await runLine(selfTest, dir);
      // Each agent's deny: exit 2 with the reason (Claude-style), or a deny in the JSON answer.
      expect(`${run.stdout}\n${run.stderr}`).toMatch(/deny/);
      expect(`${run.stdout}\n${run.stderr}`).toContain('blocked by plugin "block-dangerous-shell"');
      // And a first fixture file, which the starter policy passes.
      expect(init.stdout).toContain("toolgate.test.yaml: what it must refuse and let through; run toolgate test");
      const tested = await runCli(["test", "--cwd", dir, "--json"]);
      expect(tested.code, tested.stdout + tested.stderr).toBe(0);
      expect(JSON.parse(tested.stdout)).toMatchObject({ passed: 2, failed: 0 });
    },
    60_000,
  );

  it("warns, with the install line, when the guard's package is not installed", async () => {
    const dir = freshProject({}, false);
    const init = await runCli(["init", "claude-code", "--cwd", dir]);
    expect(init.code).toBe(0);
    expect(existsSync(join(dir, "toolgate.config.json"))).toBe(true);
    expect(init.stderr).toContain(
      "toolgate-plugin-block-dangerous-shell is not installed in this project: until it is, the hook denies every tool call (the policy names it). Install it with: npm install --save-dev toolgate-plugin-block-dangerous-shell",
    );
  });

  it("--bare installs the hook and writes no policy", async () => {
    const dir = freshProject();
    const init = await runCli(["init", "claude-code", "--bare", "--cwd", dir, "--json"]);
    expect(init.code, init.stderr).toBe(0);
    expect(JSON.parse(init.stdout)).toMatchObject({ policy: null });
    expect(existsSync(join(dir, "toolgate.config.json"))).toBe(false);
    expect(existsSync(join(dir, ".claude/settings.json"))).toBe(true);
  });
});

describe("toolgate init in a project that has a policy", () => {
  it.each([
    ["a config file", { "toolgate.config.mjs": "export default { permissions: { deny: ['Bash:command=*sudo*'] } };\n" }],
    ["a plugin in plugins/", { "plugins/mine.mjs": "export default { name: 'mine' };\n" }],
  ])("leaves %s alone", async (_case, files) => {
    const dir = freshProject(files);
    const init = await runCli(["init", "claude-code", "--cwd", dir]);
    expect(init.code, init.stderr).toBe(0);
    expect(existsSync(join(dir, "toolgate.config.json"))).toBe(false);
    for (const [path, content] of Object.entries(files)) expect(readFileSync(join(dir, path), "utf8")).toBe(content);
    expect(init.stdout).toContain("this project has a policy of its own: left as it is");
  });
});
