import { existsSync, readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir, removeTempDirs, writeFiles } from "../../helpers/cli-harness.js";
import { brokenPlugin, noisyPlugin, parseAnswer, policyPlugin, runHook } from "../../helpers/hook-harness.js";

afterAll(removeTempDirs);

function project(files: Record<string, string> = {}): string {
  const dir = makeTempDir("repo", "hook-cc-");
  writeFiles(dir, { "plugins/policy.mjs": policyPlugin.replace("__CWD__", dir), ...files });
  return dir;
}

const pre = (cwd: string, toolName: string, toolInput: Record<string, unknown>) => ({
  session_id: "session-42",
  transcript_path: "/tmp/transcript.jsonl",
  cwd,
  permission_mode: "default",
  hook_event_name: "PreToolUse",
  tool_name: toolName,
  tool_input: toolInput,
  tool_use_id: "toolu_01",
});

const specific = (answer: Record<string, unknown>) => answer.hookSpecificOutput as Record<string, unknown>;

describe.concurrent("toolgate hook claude-code", () => {
  const dir = project();

  it("denies with exit code 2 and the plugin's reason on stderr, which is what Claude reads (stdout carries the same deny)", async () => {
    const run = await runHook("claude-code", pre(dir, "Bash", { command: "rm -rf /" }));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Tool call blocked by plugin "policy": rm -rf is not allowed here\n');
    expect(specific(parseAnswer(run))).toEqual({
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: 'Tool call blocked by plugin "policy": rm -rf is not allowed here',
    });
  });

  it("says nothing when no plugin has an opinion, so Claude Code's own permissions still apply", async () => {
    const run = await runHook("claude-code", pre(dir, "Bash", { command: "ls" }));
    expect(run.code).toBe(0);
    expect(parseAnswer(run)).toEqual({});
  });

  it("allows when a plugin explicitly allows", async () => {
    const run = await runHook("claude-code", pre(dir, "Bash", { command: "pwd" }));
    expect(specific(parseAnswer(run))).toMatchObject({ permissionDecision: "allow", permissionDecisionReason: "pwd is harmless" });
  });

  it("asks", async () => {
    const run = await runHook("claude-code", pre(dir, "Bash", { command: "deploy" }));
    expect(specific(parseAnswer(run))).toMatchObject({
      permissionDecision: "ask",
      permissionDecisionReason: 'Approval needed (plugin "policy"): deploys need a human',
    });
  });

  it("rewrites the input with updatedInput", async () => {
    const run = await runHook("claude-code", pre(dir, "Bash", { command: "fix", description: "tidy" }));
    expect(specific(parseAnswer(run))).toMatchObject({ permissionDecision: "allow", updatedInput: { command: "ls -la", description: "tidy" } });
  });

  it("maps Bash to the shell kind and hands the agent's session id to plugins", async () => {
    const run = await runHook("claude-code", pre(dir, "Bash", { command: "shellonly" }));
    expect(specific(parseAnswer(run)).permissionDecisionReason).toBe('Tool call blocked by plugin "policy": kind shell session session-42');
    const other = await runHook("claude-code", pre(dir, "Read", { command: "shellonly" }));
    expect(parseAnswer(other)).toEqual({});
  });

  it("decides with the project's plugins after the agent's shell moved into a subfolder", async () => {
    const projectDir = project({ ".claude/settings.json": "{}", "src/deep/.keep": "" });
    const fromSubfolder = await runHook("claude-code", pre(`${projectDir}/src/deep`, "Bash", { command: "rm -rf /" }));
    expect(specific(parseAnswer(fromSubfolder)).permissionDecision).toBe("deny");
    const named = await runHook("claude-code", pre("/", "Bash", { command: "rm -rf /" }), { env: { CLAUDE_PROJECT_DIR: projectDir } });
    expect(specific(parseAnswer(named)).permissionDecision).toBe("deny");
  });

  it("runs post_tool_call on PostToolUse and answers with nothing to change", async () => {
    const postDir = project();
    const run = await runHook("claude-code", {
      ...pre(postDir, "Bash", { command: "ls" }),
      hook_event_name: "PostToolUse",
      tool_response: { stdout: "a.txt", stderr: "" },
    });
    expect(run.code).toBe(0);
    expect(parseAnswer(run)).toEqual({});
    const seen = JSON.parse(readFileSync(`${postDir}/post.log`, "utf8")) as Record<string, unknown>;
    expect(seen).toEqual({ name: "Bash", kind: "shell", status: "ok", content: '{"stdout":"a.txt","stderr":""}' });
  });

  it("runs post_tool_call with status error on PostToolUseFailure (a tool that failed)", async () => {
    const failDir = project();
    const input = { ...pre(failDir, "Bash", { command: "false" }), hook_event_name: "PostToolUseFailure", error: "Exit code 1", is_interrupt: false };
    const run = await runHook("claude-code", input);
    expect(run.code).toBe(0);
    expect(parseAnswer(run)).toEqual({});
    const seen = JSON.parse(readFileSync(`${failDir}/post.log`, "utf8")) as Record<string, unknown>;
    expect(seen).toEqual({ name: "Bash", kind: "shell", status: "error", content: "Exit code 1" });
  });

  it("a plugin that logs through every channel changes nothing on stdout", async () => {
    const noisyDir = project({ "plugins/noisy.mjs": noisyPlugin });
    const run = await runHook("claude-code", pre(noisyDir, "Bash", { command: "rm -rf /" }));
    expect(specific(parseAnswer(run)).permissionDecision).toBe("deny");
    for (const line of ["console.log from noisy", "console.info from noisy", "process.stdout.write from noisy", "ctx.log.info from noisy", "session end noise"])
      expect(run.stderr).toContain(line);
    const quiet = await runHook("claude-code", pre(noisyDir, "Bash", { command: "ls" }));
    expect(parseAnswer(quiet)).toEqual({});
  });

  it("a plugin that does not load denies every call, naming the plugin", async () => {
    const brokenDir = project({ "plugins/broken.mjs": brokenPlugin });
    const run = await runHook("claude-code", pre(brokenDir, "Bash", { command: "ls" }));
    expect(run.code).toBe(2);
    const answer = specific(parseAnswer(run));
    expect(answer.permissionDecision).toBe("deny");
    expect(answer.permissionDecisionReason).toMatch(/^Tool call blocked by plugin "broken": plugin "broken" failed to load: .*broken\.mjs/);
    // stdout is the answer alone; the host says once on stderr why every call is blocked.
    expect(run.stderr).toContain("every tool call is blocked until the plugins load");
  });

  it.each([
    ["process.exit(0)", "process.exit(0);"],
    ["process.exit(1)", "process.exit(1);"],
    ["process.exit() after setting exitCode 0", "process.exitCode = 0; process.exit();"],
    ["SIGTERM while it decides", "process.kill(process.pid, 'SIGTERM'); return new Promise((done) => setTimeout(done, 5000));"],
    ["SIGINT while it decides", "process.kill(process.pid, 'SIGINT'); return new Promise((done) => setTimeout(done, 5000));"],
    ["SIGHUP while it decides", "process.kill(process.pid, 'SIGHUP'); return new Promise((done) => setTimeout(done, 5000));"],
    ["a promise that never settles and nothing else to wait for", "return new Promise(() => {});"],
  ])("a plugin that ends the process with %s during the hook: the call is still denied (exit 2)", async (_how, body) => {
    const exitDir = project({ "plugins/exiter.mjs": `export default { name: "exiter", hooks: { pre_tool_call() { ${body} } } };` });
    const run = await runHook("claude-code", pre(exitDir, "Bash", { command: "ls" }));
    expect(run.code).toBe(2);
    // Claude Code reads stderr on exit 2; stdout, when there is one, carries the same deny.
    expect(run.stderr).toMatch(/denied|blocked|could not decide/);
    if (run.stdout !== "") expect(specific(parseAnswer(run)).permissionDecision).toBe("deny");
  });

  it.each([
    ["block", "tells Claude it failed, naming the plugin, and runs no post_tool_call", true],
    ["allow", "runs the loaded plugins' post_tool_call and answers as usual, as for PreToolUse", false],
  ])("a PostToolUse while a plugin does not load, onPluginError %s: %s", async (onPluginError, _what, denied) => {
    const brokenDir = project({ "plugins/broken.mjs": brokenPlugin, "toolgate.config.json": JSON.stringify({ onPluginError }) });
    const run = await runHook("claude-code", { ...pre(brokenDir, "Bash", { command: "ls" }), hook_event_name: "PostToolUse", tool_response: "a.txt" });
    expect(run.code).toBe(0);
    const answer = parseAnswer(run);
    if (denied) expect(answer).toMatchObject({ decision: "block", reason: expect.stringContaining('plugin "broken" failed to load') });
    else expect(answer).toEqual({});
    expect(existsSync(`${brokenDir}/post.log`)).toBe(!denied);
  });

  it("a project with no plugins and no rules: stdout is the answer alone, and stderr says so once", async () => {
    const emptyDir = makeTempDir("repo", "hook-cc-empty-");
    const run = await runHook("claude-code", pre(emptyDir, "Bash", { command: "ls" }));
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("{}\n");
    expect(run.stderr.match(/no plugins and no permission rules/g)).toHaveLength(1);
  });

  it("a config that does not validate denies", async () => {
    const badDir = project({ "toolgate.config.mjs": "export default { hookTimeoutMs: -1 };" });
    const run = await runHook("claude-code", pre(badDir, "Bash", { command: "ls" }));
    const answer = specific(parseAnswer(run));
    expect(answer.permissionDecision).toBe("deny");
    expect(answer.permissionDecisionReason).toContain("hookTimeoutMs");
  });

  it.each([
    ["garbage", "not json at all"],
    ["empty stdin", ""],
    ["another event", JSON.stringify({ hook_event_name: "Stop", session_id: "s" })],
    ["no tool_name", JSON.stringify({ hook_event_name: "PreToolUse", tool_input: {} })],
  ])("%s on stdin denies with exit code 2 and the reason on stderr", async (_name, input) => {
    const run = await runHook("claude-code", input);
    expect(run.code).toBe(2);
    expect(specific(parseAnswer(run)).permissionDecision).toBe("deny");
    expect(run.stderr).toContain("toolgate denied this call because it could not decide: claude-code hook input");
  });

  it("a plugin that hangs past the hook's deadline denies", async () => {
    const hangDir = project({ "plugins/hang.mjs": "export default { name: 'hang', hooks: { on_session_start() { return new Promise(() => {}); } } };" });
    const run = await runHook("claude-code", pre(hangDir, "Bash", { command: "ls" }), { env: { TOOLGATE_HOOK_TIMEOUT_MS: "1500" } });
    expect(specific(parseAnswer(run)).permissionDecision).toBe("deny");
  });
});
