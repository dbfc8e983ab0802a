import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir, removeTempDirs, writeFiles } from "../../helpers/cli-harness.js";
import { brokenPlugin, noisyPlugin, parseAnswer, policyPlugin, runHook } from "../../helpers/hook-harness.js";

afterAll(removeTempDirs);

function project(files: Record<string, string> = {}): string {
  const dir = makeTempDir("repo", "hook-agents-");
  writeFiles(dir, { "plugins/policy.mjs": policyPlugin.replace("__CWD__", dir), ...files });
  return dir;
}

const postLog = (dir: string) => JSON.parse(readFileSync(`${dir}/post.log`, "utf8")) as Record<string, unknown>;

describe.concurrent("toolgate hook gemini-cli", () => {
  const dir = project({ "plugins/noisy.mjs": noisyPlugin });
  const beforeTool = (command: string, extra: Record<string, unknown> = {}) => ({
    session_id: "g-1",
    transcript_path: "",
    cwd: dir,
    hook_event_name: "BeforeTool",
    timestamp: "2026-01-01T00:00:00Z",
    tool_name: "run_shell_command",
    tool_input: { command, ...extra },
  });

  it("denies with exit code 2 and the reason on stderr (stdout: decision/reason), with a logging plugin loaded", async () => {
    const run = await runHook("gemini-cli", beforeTool("rm -rf /"));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Tool call blocked by plugin "policy": rm -rf is not allowed here\n');
    expect(parseAnswer(run)).toEqual({ decision: "deny", reason: 'Tool call blocked by plugin "policy": rm -rf is not allowed here' });
  });

  it("maps run_shell_command to the shell kind", async () => {
    expect(parseAnswer(await runHook("gemini-cli", beforeTool("shellonly"))).decision).toBe("deny");
  });

  it("rewrites arguments through hookSpecificOutput.tool_input", async () => {
    expect(parseAnswer(await runHook("gemini-cli", beforeTool("fix")))).toEqual({
      hookSpecificOutput: { hookEventName: "BeforeTool", tool_input: { command: "ls -la" } },
    });
  });

  it("denies a rewrite that removes an argument (Gemini merges tool_input) and an ask (it cannot ask)", async () => {
    const removed = parseAnswer(await runHook("gemini-cli", beforeTool("drop-flag", { flag: true })));
    expect(removed).toMatchObject({ decision: "deny" });
    expect(String(removed.reason)).toContain("flag");
    expect(parseAnswer(await runHook("gemini-cli", beforeTool("deploy")))).toMatchObject({ decision: "deny" });
  });

  it("runs post_tool_call on AfterTool", async () => {
    const postDir = project();
    const run = await runHook("gemini-cli", {
      ...beforeTool("ls"),
      cwd: postDir,
      hook_event_name: "AfterTool",
      tool_response: { llmContent: "a.txt", returnDisplay: "a.txt" },
    });
    expect(parseAnswer(run)).toEqual({});
    expect(postLog(postDir)).toEqual({ name: "run_shell_command", kind: "shell", status: "ok", content: "a.txt" });
  });

  it("a broken plugin denies; garbage denies with exit code 2", async () => {
    const brokenDir = project({ "plugins/broken.mjs": brokenPlugin });
    const broken = parseAnswer(await runHook("gemini-cli", { ...beforeTool("ls"), cwd: brokenDir }));
    expect(broken.decision).toBe("deny");
    expect(String(broken.reason)).toContain('plugin "broken" failed to load');
    const garbage = await runHook("gemini-cli", "{{{");
    expect(garbage.code).toBe(2);
    expect(garbage.stderr).toContain("gemini-cli hook input: not JSON");
  });
});

describe.concurrent("toolgate hook codex", () => {
  const dir = project({ "plugins/noisy.mjs": noisyPlugin });
  const pre = (command: string) => ({
    session_id: "c-1",
    transcript_path: null,
    cwd: dir,
    hook_event_name: "PreToolUse",
    model: "gpt-5",
    turn_id: "t1",
    tool_name: "Bash",
    tool_input: { command },
    tool_use_id: "call_1",
  });

  it("denies in Claude Code's format (exit code 2, the reason on stderr), with a logging plugin loaded", async () => {
    const run = await runHook("codex", pre("rm -rf /"));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Tool call blocked by plugin "policy": rm -rf is not allowed here\n');
    expect(parseAnswer(run)).toEqual({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: 'Tool call blocked by plugin "policy": rm -rf is not allowed here',
      },
    });
  });

  it("denies an ask and a rewrite, which Codex would not enforce", async () => {
    const ask = parseAnswer(await runHook("codex", pre("deploy"))).hookSpecificOutput as Record<string, unknown>;
    expect(ask.permissionDecision).toBe("deny");
    expect(String(ask.permissionDecisionReason)).toContain("deploys need a human");
    const rewrite = parseAnswer(await runHook("codex", pre("fix"))).hookSpecificOutput as Record<string, unknown>;
    expect(rewrite.permissionDecision).toBe("deny");
    expect(rewrite).not.toHaveProperty("updatedInput");
  });

  it("runs post_tool_call on PostToolUse; garbage denies with exit code 2", async () => {
    const postDir = project();
    const run = await runHook("codex", { ...pre("ls"), cwd: postDir, hook_event_name: "PostToolUse", tool_response: "a.txt\n" });
    expect(parseAnswer(run)).toEqual({});
    expect(postLog(postDir)).toMatchObject({ name: "Bash", kind: "shell", content: "a.txt\n" });
    expect((await runHook("codex", "nope")).code).toBe(2);
  });
});

describe.concurrent("toolgate hook copilot-cli", () => {
  const dir = project({ "plugins/noisy.mjs": noisyPlugin });
  const pre = (command: string) => ({ timestamp: 1704614600000, cwd: dir, toolName: "bash", toolArgs: JSON.stringify({ command, description: "d" }) });

  it("denies with permissionDecision and exit code 2, reading toolArgs as a JSON string, with a logging plugin loaded", async () => {
    const run = await runHook("copilot-cli", pre("rm -rf /"));
    expect(run.code).toBe(2);
    expect(parseAnswer(run)).toEqual({
      permissionDecision: "deny",
      permissionDecisionReason: 'Tool call blocked by plugin "policy": rm -rf is not allowed here',
    });
  });

  it("maps bash to the shell kind; asks; rewrites with modifiedArgs", async () => {
    expect(parseAnswer(await runHook("copilot-cli", pre("shellonly"))).permissionDecision).toBe("deny");
    expect(parseAnswer(await runHook("copilot-cli", pre("deploy"))).permissionDecision).toBe("ask");
    expect(parseAnswer(await runHook("copilot-cli", pre("fix")))).toMatchObject({
      permissionDecision: "allow",
      modifiedArgs: { command: "ls -la", description: "d" },
    });
  });

  it("runs post_tool_call when the input carries a toolResult", async () => {
    const postDir = project();
    const run = await runHook("copilot-cli", { ...pre("ls"), cwd: postDir, toolResult: { resultType: "failure", textResultForLlm: "exit 1" } });
    expect(parseAnswer(run)).toEqual({});
    expect(postLog(postDir)).toEqual({ name: "bash", kind: "shell", status: "error", content: "exit 1" });
  });

  it("a bad config denies; garbage denies (on stdout, the deny Copilot CLI documents, and with exit code 2)", async () => {
    const badDir = project({ "toolgate.config.mjs": "export default { plugins: 42 };" });
    const bad = parseAnswer(await runHook("copilot-cli", { ...pre("ls"), cwd: badDir }));
    expect(bad.permissionDecision).toBe("deny");
    expect(String(bad.permissionDecisionReason)).toContain("plugins");
    const garbage = await runHook("copilot-cli", "]");
    expect(garbage.code).toBe(2);
    expect(parseAnswer(garbage).permissionDecision).toBe("deny");
  });
});
