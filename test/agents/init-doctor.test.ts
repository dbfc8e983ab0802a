import { spawn } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir, removeTempDirs, repoRoot, runCli, writeFiles } from "../cli/cli-harness.js";

afterAll(removeTempDirs);

const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Record<string, any>;

describe("toolgate init", () => {
  it("merges the hook into Claude Code's settings, keeps everything else, and never adds it twice", async () => {
    const dir = makeTempDir("os", "init-");
    const existing = {
      permissions: { allow: ["Bash(ls)"] },
      hooks: {
        PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "echo other" }] }],
        Stop: [{ hooks: [{ type: "command", command: "echo stop" }] }],
      },
    };
    writeFiles(dir, { ".claude/settings.json": JSON.stringify(existing) });
    const first = await runCli(["init", "claude-code", "--cwd", dir]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("installed the toolgate hook for claude-code in .claude/settings.json");
    const settings = readJson(join(dir, ".claude/settings.json"));
    expect(settings.permissions).toEqual(existing.permissions);
    expect(settings.hooks.Stop).toEqual(existing.hooks.Stop);
    expect(settings.hooks.PreToolUse[0]).toEqual(existing.hooks.PreToolUse[0]);
    const command = settings.hooks.PreToolUse[1].hooks[0].command as string;
    expect(settings.hooks.PreToolUse[1].matcher).toBe("*");
    expect(settings.hooks.PostToolUse).toEqual([{ matcher: "*", hooks: [{ type: "command", command }] }]);
    expect(settings.hooks.PostToolUseFailure).toEqual([{ matcher: "*", hooks: [{ type: "command", command }] }]);
    expect(command).toMatch(/^node /);
    expect(command).not.toContain("npx");
    expect(command).toContain(`${join(repoRoot, "packages/toolgate/src/cli/main.ts")} hook claude-code || exit 2`);

    const before = readFileSync(join(dir, ".claude/settings.json"), "utf8");
    const second = await runCli(["init", "claude-code", "--cwd", dir, "--json"]);
    expect(JSON.parse(second.stdout)).toMatchObject({ agent: "claude-code", changed: false, command });
    expect(readFileSync(join(dir, ".claude/settings.json"), "utf8")).toBe(before);
  });

  it("replaces a toolgate hook that points at another install instead of adding a second", async () => {
    const dir = makeTempDir("os", "init-");
    const old = "node /old/place/node_modules/@toolgate/host/dist/cli/main.js hook gemini-cli";
    writeFiles(dir, {
      ".gemini/settings.json": JSON.stringify({ hooks: { BeforeTool: [{ matcher: ".*", hooks: [{ type: "command", command: old }] }] }, theme: "dark" }),
    });
    await runCli(["init", "gemini-cli", "--cwd", dir]);
    const settings = readJson(join(dir, ".gemini/settings.json"));
    expect(settings.theme).toBe("dark");
    expect(settings.hooks.BeforeTool).toHaveLength(1);
    expect(settings.hooks.BeforeTool[0].hooks[0].command).not.toBe(old);
    expect(settings.hooks.AfterTool).toHaveLength(1);
  });

  it("refuses to touch a settings file that is not JSON", async () => {
    const dir = makeTempDir("os", "init-");
    writeFiles(dir, { ".codex/hooks.json": "{ not json" });
    const run = await runCli(["init", "codex", "--cwd", dir]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(".codex/hooks.json is not valid JSON");
    expect(readFileSync(join(dir, ".codex/hooks.json"), "utf8")).toBe("{ not json");
  });
});

describe("the installed command when Node.js cannot even start toolgate", () => {
  it.each([
    ["claude-code", (run: ShellRun) => expect(run.code).toBe(2)],
    ["gemini-cli", (run: ShellRun) => expect(run.code).toBe(2)],
    ["codex", (run: ShellRun) => expect(run.code).toBe(2)],
    ["copilot-cli", (run: ShellRun) => expect(JSON.parse(run.stdout)).toMatchObject({ permissionDecision: "deny" })],
  ] as const)("still denies for %s", async (agent, expectDeny) => {
    const dir = makeTempDir("os", "fallback-");
    const init = await runCli(["init", agent, "--cwd", dir, "--json"]);
    const { command } = JSON.parse(init.stdout) as { command: string };
    const broken = command.replace(join(repoRoot, "packages/toolgate/src/cli/main.ts"), "/nowhere/toolgate/cli/main.js");
    expect(broken).not.toBe(command);
    expectDeny(await shell(broken, dir));
  });
});

interface ShellRun {
  code: number | null;
  stdout: string;
}

function shell(command: string, cwd: string): Promise<ShellRun> {
  return new Promise((resolve) => {
    const child = spawn("sh", ["-c", command], { cwd });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.on("close", (code) => resolve({ code, stdout }));
    child.stdin.end("{}");
  });
}

describe("toolgate doctor", () => {
  it("reports every agent; installed hooks are spawned with a sample call and answer", async () => {
    const dir = makeTempDir("repo", "doctor-");
    for (const agent of ["claude-code", "gemini-cli", "codex", "copilot-cli"]) expect((await runCli(["init", agent, "--cwd", dir])).code).toBe(0);
    expect(readJson(join(dir, ".github/hooks/toolgate.json"))).toMatchObject({
      version: 1,
      hooks: { preToolUse: [{ type: "command" }], postToolUse: [{ type: "command" }] },
    });
    expect(readJson(join(dir, ".codex/hooks.json")).hooks.PreToolUse).toHaveLength(1);
    const run = await runCli(["doctor", "--cwd", dir, "--json"]);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { ok: boolean; agents: Record<string, unknown>[] };
    expect(report.ok).toBe(true);
    expect(report.agents.map((agent) => [agent.agent, agent.installed, agent.answers, agent.current])).toEqual([
      ["claude-code", true, true, true],
      ["gemini-cli", true, true, true],
      ["codex", true, true, true],
      ["copilot-cli", true, true, true],
    ]);
  });

  it("says when a hook is not installed, and fails when an installed hook does not answer", async () => {
    const dir = makeTempDir("os", "doctor-");
    const broken = "node /nowhere/toolgate/dist/cli/main.js hook claude-code || exit 2";
    writeFiles(dir, { ".claude/settings.json": JSON.stringify({ hooks: { PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: broken }] }] } }) });
    const run = await runCli(["doctor", "--cwd", dir]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/claude-code +installed, does not answer/);
    expect(run.stdout).toMatch(/gemini-cli +not installed/);
    // A project whose plugin does not load: the hook answers (it blocks every call), and doctor says why.
    writeFiles(dir, { "plugins/broken.mjs": "export default {" });
    await runCli(["init", "claude-code", "--cwd", dir]);
    const failing = await runCli(["doctor", "--cwd", dir, "--json"]);
    expect(failing.code).toBe(1);
    const report = JSON.parse(failing.stdout) as { project: { problem: string }; agents: { agent: string; answers: boolean; answer: string }[] };
    expect(report.project.problem).toMatch(/plugin "broken" failed to load: .*broken\.mjs/);
    expect(report.agents[0]).toMatchObject({ agent: "claude-code", answers: true });
    expect(report.agents[0]!.answer).toMatch(/Tool call blocked by plugin \\"broken\\": plugin \\"broken\\" failed to load/);
    rmSync(join(dir, "plugins"), { recursive: true });
    writeFileSync(join(dir, ".claude/settings.json"), "{}");
    const clean = await runCli(["doctor", "--cwd", dir, "--json"]);
    expect(clean.code).toBe(0);
    expect((JSON.parse(clean.stdout) as { agents: { installed: boolean }[] }).agents.every((agent) => !agent.installed)).toBe(true);
    // Nothing guards the calls any more: a warning, not a failure.
    expect((JSON.parse(clean.stdout) as { project: unknown }).project).toEqual({
      policies: 0,
      problem: null,
      warning: expect.stringMatching(/^no plugins and no permission rules: every tool call is allowed/),
    });
    const text = await runCli(["doctor", "--cwd", dir]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^project +warning: no plugins and no permission rules/m);
  });
});
