import { spawn } from "node:child_process";
import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { asAgentRuns } from "../../../packages/toolgate/src/cli/hook-command.js";
import { makeTempDir, removeTempDirs, runCli, writeFiles } from "../../helpers/cli-harness.js";
import { installToolgateBin, mainPath, tsxLoader } from "../../helpers/hook-harness.js";

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
    installToolgateBin(dir);
    const first = await runCli(["init", "claude-code", "--bare", "--cwd", dir]);
    expect(first.code).toBe(0);
    expect(first.stderr).toBe("");
    expect(first.stdout).toContain("installed the toolgate hook for claude-code in .claude/settings.json");
    const settings = readJson(join(dir, ".claude/settings.json"));
    expect(settings.permissions).toEqual(existing.permissions);
    expect(settings.hooks.Stop).toEqual(existing.hooks.Stop);
    expect(settings.hooks.PreToolUse[0]).toEqual(existing.hooks.PreToolUse[0]);
    const command = settings.hooks.PreToolUse[1].hooks[0].command as string;
    expect(settings.hooks.PreToolUse[1].matcher).toBe("*");
    expect(settings.hooks.PostToolUse).toEqual([{ matcher: "*", hooks: [{ type: "command", command }] }]);
    expect(settings.hooks.PostToolUseFailure).toEqual([{ matcher: "*", hooks: [{ type: "command", command }] }]);
    // The project's own bin, from the folder Claude Code names: no path of this machine, no npx.
    expect(command).toBe(installedCommand('"$CLAUDE_PROJECT_DIR"/node_modules/.bin/toolgate', "claude-code"));

    const before = readFileSync(join(dir, ".claude/settings.json"), "utf8");
    const second = await runCli(["init", "claude-code", "--bare", "--cwd", dir, "--json"]);
    expect(JSON.parse(second.stdout)).toMatchObject({ agent: "claude-code", changed: false, command });
    expect(readFileSync(join(dir, ".claude/settings.json"), "utf8")).toBe(before);
  });

  it("replaces a toolgate hook that points at another install instead of adding a second", async () => {
    const dir = makeTempDir("os", "init-");
    const old = "node /old/place/node_modules/@toolgate/host/dist/cli/main.js hook gemini-cli";
    writeFiles(dir, {
      ".gemini/settings.json": JSON.stringify({ hooks: { BeforeTool: [{ matcher: ".*", hooks: [{ type: "command", command: old }] }] }, theme: "dark" }),
    });
    await runCli(["init", "gemini-cli", "--bare", "--cwd", dir]);
    const settings = readJson(join(dir, ".gemini/settings.json"));
    expect(settings.theme).toBe("dark");
    expect(settings.hooks.BeforeTool).toHaveLength(1);
    expect(settings.hooks.BeforeTool[0].hooks[0].command).not.toBe(old);
    expect(settings.hooks.AfterTool).toHaveLength(1);
  });

  it("refuses to touch a settings file that is not JSON", async () => {
    const dir = makeTempDir("os", "init-");
    writeFiles(dir, { ".codex/hooks.json": "{ not json" });
    const run = await runCli(["init", "codex", "--bare", "--cwd", dir]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(".codex/hooks.json is not valid JSON");
    expect(readFileSync(join(dir, ".codex/hooks.json"), "utf8")).toBe("{ not json");
  });
});

describe("the command init writes, in every checkout", () => {
  it.each([
    ["claude-code", installedCommand('"$CLAUDE_PROJECT_DIR"/node_modules/.bin/toolgate', "claude-code")],
    ["gemini-cli", installedCommand("$GEMINI_PROJECT_DIR/node_modules/.bin/toolgate", "gemini-cli")],
    ["codex", installedCommand("node_modules/.bin/toolgate", "codex")],
    [
      "copilot-cli",
      expect.stringMatching(
        /^\{ \[ -x node_modules\/\.bin\/toolgate \] .* && node_modules\/\.bin\/toolgate hook copilot-cli \|\| \{ \[ \$\? -eq 2 \] \|\| echo '\{"permissionDecision":"deny"/,
      ),
    ],
  ] as const)("%s: names no path of this machine, and decides with the plugins of the checkout it runs in", async (agent, expected) => {
    const first = makeTempDir("os", "checkout-a-");
    installToolgateBin(first);
    const init = await runCli(["init", agent, "--bare", "--cwd", first, "--json"]);
    const { command, file } = JSON.parse(init.stdout) as { command: string; file: string };
    expect(command).toEqual(expected);
    expect(readFileSync(file, "utf8")).not.toContain(first);
    // A teammate's checkout elsewhere, with a space in its path, and a plugin that blocks everything.
    const second = join(makeTempDir("os", "checkout-b-"), "my project");
    cpSync(first, second, { recursive: true });
    writeFiles(second, {
      "plugins/deny.mjs": "export default { name: 'deny', hooks: { pre_tool_call: () => ({ action: 'block', message: 'checkout b decides' }) } };",
    });
    const run = await shell(asAgentRuns(agent, command, second), second, JSON.stringify(sampleInput(agent, second)));
    expect(run.stdout + run.stderr).toContain("checkout b decides");
  });

  it("when toolgate is not installed in the project: writes the same command, says how to install it, and the hook denies", async () => {
    const dir = makeTempDir("os", "not-installed-");
    writeFiles(dir, { "pnpm-lock.yaml": "lockfileVersion: '9.0'\n" });
    const init = await runCli(["init", "claude-code", "--bare", "--cwd", dir, "--json"]);
    expect(init.code).toBe(0);
    const report = JSON.parse(init.stdout) as { command: string; cli: unknown };
    expect(report).toMatchObject({
      command: installedCommand('"$CLAUDE_PROJECT_DIR"/node_modules/.bin/toolgate', "claude-code"),
      cli: { path: "node_modules/.bin/toolgate", found: false },
    });
    expect(init.stderr).toContain("warning: toolgate is not installed in this project (no node_modules/.bin/toolgate in");
    expect(init.stderr).toContain("the hook denies every tool call. Install it with: pnpm add -D toolgate");
    const denied = await shell(asAgentRuns("claude-code", report.command, dir), dir, "{}");
    expect(denied.code).toBe(2);
    // Claude Code hands an exit-2 hook's stderr to the model: it says the fix, not the shell's "not found".
    expect(denied.stderr.trim()).toBe(
      "toolgate denied this call because the toolgate CLI is not installed in this project: run npm install, then toolgate doctor",
    );
  });

  it("finds the bin a workspace hoists to its root, by a path from the project", async () => {
    const root = makeTempDir("os", "workspace-");
    installToolgateBin(root);
    const app = join(root, "packages/app");
    writeFiles(app, { "package.json": "{}" });
    const init = await runCli(["init", "gemini-cli", "--bare", "--cwd", app, "--json"]);
    expect(JSON.parse(init.stdout)).toMatchObject({
      command: installedCommand("$GEMINI_PROJECT_DIR/../../node_modules/.bin/toolgate", "gemini-cli"),
      cli: { path: "../../node_modules/.bin/toolgate", found: true },
    });
  });
});

describe("the installed command when toolgate cannot even start", () => {
  it.each([
    ["claude-code", (run: ShellRun) => expect(run.code).toBe(2)],
    ["gemini-cli", (run: ShellRun) => expect(run.code).toBe(2)],
    ["codex", (run: ShellRun) => expect(run.code).toBe(2)],
    ["copilot-cli", (run: ShellRun) => expect(JSON.parse(run.stdout)).toMatchObject({ permissionDecision: "deny" })],
  ] as const)("still denies for %s", async (agent, expectDeny) => {
    const dir = makeTempDir("os", "fallback-");
    installToolgateBin(dir);
    const init = await runCli(["init", agent, "--bare", "--cwd", dir, "--json"]);
    const { command } = JSON.parse(init.stdout) as { command: string };
    // A bin that exists but whose Node.js fails before toolgate runs (a broken install).
    writeFiles(dir, { "node_modules/.bin/toolgate": '#!/bin/sh\nexec node /nowhere/toolgate/cli/main.cjs "$@"\n' });
    expectDeny(await shell(asAgentRuns(agent, command, dir), dir, "{}"));
    rmSync(join(dir, "node_modules"), { recursive: true });
    const missing = await shell(asAgentRuns(agent, command, dir), dir, "{}");
    expectDeny(missing);
    expect(missing.stderr).toContain("the toolgate CLI is not installed in this project: run npm install");
    expect(missing.stderr).not.toContain("not found");
  });
});

/** A pre-tool input for `agent` asking to run `ls` in `cwd`. */
function sampleInput(agent: string, cwd: string): Record<string, unknown> {
  if (agent === "copilot-cli") return { timestamp: Date.now(), cwd, toolName: "bash", toolArgs: JSON.stringify({ command: "ls" }) };
  const toolName = agent === "gemini-cli" ? "run_shell_command" : "Bash";
  return {
    session_id: "s",
    transcript_path: "",
    cwd,
    hook_event_name: agent === "gemini-cli" ? "BeforeTool" : "PreToolUse",
    tool_name: toolName,
    tool_input: { command: "ls" },
  };
}

interface ShellRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `run.command` through `sh -c` in `cwd`, with `run.env` and `input` on stdin, as an agent runs its hook. */
function shell(run: { command: string; env: NodeJS.ProcessEnv }, cwd: string, input: string): Promise<ShellRun> {
  return new Promise((resolve) => {
    const child = spawn("sh", ["-c", run.command], { cwd, env: run.env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    // A command that fails to start exits before reading its input.
    child.stdin.on("error", () => {});
    child.stdin.end(input);
  });
}

// Each test starts a dozen CLI processes from source; on a busy 2-core machine that takes 10-20 s.
describe("toolgate doctor", { timeout: 60_000 }, () => {
  it("reports every agent; installed hooks are spawned with a sample call and answer", async () => {
    const dir = join(makeTempDir("repo", "doctor-"), "a project");
    installToolgateBin(dir);
    const inits = await Promise.all(["claude-code", "gemini-cli", "codex", "copilot-cli"].map((agent) => runCli(["init", agent, "--bare", "--cwd", dir])));
    expect(inits.map((init) => init.code)).toEqual([0, 0, 0, 0]);
    expect(readJson(join(dir, ".github/hooks/toolgate.json"))).toMatchObject({
      version: 1,
      hooks: { preToolUse: [{ type: "command" }], postToolUse: [{ type: "command" }] },
    });
    expect(readJson(join(dir, ".codex/hooks.json")).hooks.PreToolUse).toHaveLength(1);
    const run = await runCli(["doctor", "--cwd", dir, "--json"]);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { ok: boolean; agents: Record<string, unknown>[] };
    expect(report.ok).toBe(true);
    expect(report.agents.map((agent) => [agent.agent, agent.installed, agent.answers, agent.current, agent.cliStarts, agent.machinePath])).toEqual([
      ["claude-code", true, true, true, true, null],
      ["gemini-cli", true, true, true, true, null],
      ["codex", true, true, true, true, null],
      ["copilot-cli", true, true, true, true, null],
    ]);
  });

  it("says when a hook is not installed, and fails when an installed hook does not answer", async () => {
    const dir = makeTempDir("os", "doctor-");
    const broken = "node /nowhere/toolgate/dist/cli/main.js hook claude-code || exit 2";
    writeFiles(dir, { ".claude/settings.json": JSON.stringify({ hooks: { PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: broken }] }] } }) });
    const run = await runCli(["doctor", "--cwd", dir]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/claude-code +installed, does not answer/);
    expect(run.stdout).toContain("the hook command names /nowhere/toolgate/dist/cli/main.js, a path on this machine only");
    expect(run.stdout).toContain("the toolgate CLI the hook command runs (node /nowhere/toolgate/dist/cli/main.js) does not start from");
    expect(run.stdout).toMatch(/gemini-cli +not installed/);
    // A project whose plugin does not load: the hook answers (it blocks every call), and doctor says why.
    writeFiles(dir, { "plugins/broken.mjs": "export default {" });
    installToolgateBin(dir);
    await runCli(["init", "claude-code", "--bare", "--cwd", dir]);
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
      sandbox: { used: false },
    });
    const text = await runCli(["doctor", "--cwd", dir]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^project +warning: no plugins and no permission rules/m);
  });

  it("fails on a command that names a path of this machine, even one that answers here", async () => {
    const dir = makeTempDir("os", "doctor-");
    installToolgateBin(dir);
    // What init wrote before: this checkout's CLI by absolute path.
    const here = `node --import ${tsxLoader} ${mainPath} hook claude-code || exit 2`;
    writeFiles(dir, { ".claude/settings.json": JSON.stringify({ hooks: { PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: here }] }] } }) });
    const run = await runCli(["doctor", "--cwd", dir, "--json"]);
    expect(run.code).toBe(1);
    const [claude] = (JSON.parse(run.stdout) as { agents: Record<string, unknown>[] }).agents;
    expect(claude).toMatchObject({ agent: "claude-code", answers: true, cliStarts: true, current: false, machinePath: tsxLoader });
    expect(claude!.problem).toBe(
      `the hook command names ${tsxLoader}, a path on this machine only: in a teammate's or a CI job's checkout the hook does not start and every tool call is denied (run toolgate init claude-code to write a command that finds toolgate from the project)`,
    );
    const text = await runCli(["doctor", "--cwd", dir]);
    expect(text.stdout).toMatch(/claude-code +installed, answers/);
    expect(text.stdout).toContain("a path on this machine only");
    // init replaces it with the portable command, and the doctor is satisfied.
    expect((await runCli(["init", "claude-code", "--bare", "--cwd", dir])).code).toBe(0);
    const fixed = await runCli(["doctor", "--cwd", dir, "--json"]);
    expect(fixed.code, fixed.stdout).toBe(0);
    expect((JSON.parse(fixed.stdout) as { agents: Record<string, unknown>[] }).agents[0]).toMatchObject({ machinePath: null, current: true, problem: null });
  });

  it("fails on a hook whose CLI does not start from the project, and names the install line", async () => {
    const dir = makeTempDir("os", "doctor-");
    writeFiles(dir, { "plugins/allow.mjs": "export default { name: 'allow', hooks: {} };" });
    for (const agent of ["gemini-cli", "copilot-cli"]) await runCli(["init", agent, "--bare", "--cwd", dir]);
    const run = await runCli(["doctor", "--cwd", dir, "--json"]);
    expect(run.code).toBe(1);
    const agents = (JSON.parse(run.stdout) as { agents: Record<string, unknown>[] }).agents.filter((agent) => agent.installed);
    expect(agents.map((agent) => [agent.agent, agent.answers, agent.cliStarts, agent.machinePath])).toEqual([
      ["gemini-cli", false, false, null],
      ["copilot-cli", false, false, null],
    ]);
    expect(agents[0]!.problem).toMatch(
      /^the toolgate CLI the hook command runs \(\$GEMINI_PROJECT_DIR\/node_modules\/\.bin\/toolgate\) does not start from .*: .*not found\. Install toolgate in the project \(npm install --save-dev toolgate\), or run toolgate init gemini-cli again where it is installed$/,
    );
    installToolgateBin(dir);
    const installed = await runCli(["doctor", "--cwd", dir, "--json"]);
    expect(installed.code, installed.stdout).toBe(0);
  });
});

/** The command `init` writes: the bin checked first (a missing one says to run npm install), then run, then the agent's deny. */
function installedCommand(bin: string, agent: string): string {
  const missing = "toolgate denied this call because the toolgate CLI is not installed in this project: run npm install, then toolgate doctor";
  return `{ [ -x ${bin} ] || { echo '${missing}' >&2; false; }; } && ${bin} hook ${agent} || exit 2`;
}
