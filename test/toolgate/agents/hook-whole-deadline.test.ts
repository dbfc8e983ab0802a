import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir, removeTempDirs, repoRoot, writeFiles } from "../../helpers/cli-harness.js";
import { outputOf } from "../../helpers/child-output.js";
import { mainPath, parseAnswer, runHook, tsxLoader, type HookRun } from "../../helpers/hook-harness.js";

afterAll(removeTempDirs);

/**
 * Issue #25 point 4: the hook's whole-call deadline, `TOOLGATE_HOOK_TIMEOUT_MS`, holds whatever stops
 * the hook from answering: a stdin the agent never closes, and plugin code that holds the thread while
 * the project's per-hook stall limit (hookTimeoutMs + 1000 ms) is still far off. Whichever deadline
 * comes first wins; the answer is the agent's deny with its deny exit code.
 */

const wholeCallMs = 2500;
/** Far above the whole-call deadline: a deny before it is the whole-call deadline's. */
const hookTimeoutMs = 8000;
/** Stopping the thread, exiting, and a loaded 2-core machine. */
const marginMs = 2000;
const env = { TOOLGATE_HOOK_TIMEOUT_MS: String(wholeCallMs) };
const deadlineReason = `no decision within ${wholeCallMs} ms (TOOLGATE_HOOK_TIMEOUT_MS)`;

type Agent = "claude-code" | "codex" | "gemini-cli" | "copilot-cli";
const agents: Agent[] = ["claude-code", "codex", "gemini-cli", "copilot-cli"];

function preInput(agent: Agent, cwd: string, command: string): Record<string, unknown> {
  if (agent === "gemini-cli") return { session_id: "s", cwd, hook_event_name: "BeforeTool", tool_name: "run_shell_command", tool_input: { command } };
  if (agent === "copilot-cli") return { timestamp: 1, cwd, toolName: "bash", toolArgs: JSON.stringify({ command }) };
  return { session_id: "s", cwd, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command }, tool_use_id: "toolu_1" };
}

/** Exit code 2 is the deny every one of these agents blocks on, whatever stdout holds. */
function expectDeny(run: HookRun, reason: string | RegExp): void {
  expect(run.code, run.stderr).toBe(2);
  const answer = JSON.stringify(parseAnswer(run));
  expect(answer).toMatch(/"(permissionDecision|decision)":"(deny|block)"/);
  expect(run.stdout + run.stderr).toMatch(reason);
}

/** `toolgate hook <agent>` with `written` on a stdin that is never closed; resolves when the hook exits. */
async function runWithOpenStdin(agent: Agent, written: string): Promise<HookRun & { ms: number }> {
  const child = spawn(process.execPath, ["--import", tsxLoader, mainPath, "hook", agent], { cwd: repoRoot, env: { ...process.env, ...env } });
  const started = Date.now();
  const killer = setTimeout(() => child.kill("SIGKILL"), wholeCallMs + 15_000);
  const output = outputOf(child);
  child.stdin.write(written);
  const run = await output;
  clearTimeout(killer);
  child.stdin.destroy();
  return { ...run, ms: Date.now() - started };
}

// One at a time, with room: each is a whole CLI process on a machine that may be busy.
const slow = { timeout: 60_000 };

describe("toolgate hook whose stdin never closes", () => {
  const dir = makeTempDir("repo", "open-stdin-");
  writeFiles(dir, { "plugins/allow.mjs": "export default { name: 'allow', hooks: { pre_tool_call() {} } };\n" });
  const input = (agent: Agent) => JSON.stringify(preInput(agent, dir, "ls"));
  const cases: [string, Agent, string][] = [
    ["nothing written", "claude-code", ""],
    ["half a request", "claude-code", input("claude-code").slice(0, 20)],
    ["a whole request, a project with plugins", "claude-code", input("claude-code")],
    ["a whole request and a newline", "claude-code", `${input("claude-code")}\n`],
    ["a whole request", "codex", input("codex")],
    ["a whole request", "gemini-cli", input("gemini-cli")],
    ["a whole request", "copilot-cli", input("copilot-cli")],
    ["half a request", "copilot-cli", input("copilot-cli").slice(0, 30)],
  ];
  it.each(cases)("%s (%s): denies at TOOLGATE_HOOK_TIMEOUT_MS", slow, async (_name, agent, written) => {
    const run = await runWithOpenStdin(agent, written);
    expect(run.code, `the hook did not end by itself (stderr: ${run.stderr})`).not.toBeNull();
    expectDeny(run, deadlineReason);
  });
});

/** Each holds the thread in its own place, writing when it starts to `blocked-at`. */
const stalls: Record<string, (dir: string) => Record<string, string>> = {
  "a busy loop in pre_tool_call": (dir) => ({ "plugins/spin.mjs": hookThat(dir, "pre_tool_call", "for (;;) {}") }),
  "a catastrophic regex in pre_tool_call": (dir) => ({
    "plugins/regex.mjs": hookThat(dir, "pre_tool_call", `if (/^(a+)+$/.test("a".repeat(64) + "!")) return { action: "allow" };`),
  }),
  "a busy loop in on_session_start": (dir) => ({ "plugins/spin.mjs": hookThat(dir, "on_session_start", "for (;;) {}") }),
  "a module that spins at load": (dir) => ({ "plugins/spin.mjs": `${mark(dir)}\nfor (;;) {}\nexport default { name: "spin" };\n` }),
  "a busy loop in a plugin factory": (dir) => ({
    "plugins/factory.mjs": `import { writeFileSync } from "node:fs";\nexport default () => { writeFileSync(${JSON.stringify(join(dir, "blocked-at"))}, String(Date.now())); for (;;) {} };\n`,
  }),
};

function mark(dir: string): string {
  return `(await import("node:fs")).writeFileSync(${JSON.stringify(join(dir, "blocked-at"))}, String(Date.now()));`;
}

function hookThat(dir: string, hook: string, body: string): string {
  return `import { writeFileSync } from "node:fs";
export default { name: "stall", hooks: { ${hook}() { writeFileSync(${JSON.stringify(join(dir, "blocked-at"))}, String(Date.now())); ${body} } } };
`;
}

async function stalledRun(
  agent: Agent,
  files: (dir: string) => Record<string, string>,
  config: (dir: string) => string = () => `export default { hookTimeoutMs: ${hookTimeoutMs} };\n`,
) {
  const dir = makeTempDir("repo", "whole-deadline-");
  writeFiles(dir, { "toolgate.config.mjs": config(dir), ...files(dir) });
  const run = await runHook(agent, preInput(agent, dir, "ls"), { env });
  const endedAt = Date.now();
  expect(existsSync(join(dir, "blocked-at")), `the code never started holding the thread (stderr: ${run.stderr})`).toBe(true);
  return { ...run, heldMs: endedAt - Number(readFileSync(join(dir, "blocked-at"), "utf8")) };
}

describe("the whole-call deadline cuts off a thread held by the project's code before the per-hook stall limit", () => {
  it.each(Object.entries(stalls))("claude-code, %s", slow, async (_name, files) => {
    const run = await stalledRun("claude-code", files);
    expectDeny(run, deadlineReason);
    expect(run.heldMs).toBeLessThan(wholeCallMs + marginMs);
  });

  it.each(agents.filter((agent) => agent !== "claude-code"))("%s, a busy loop in pre_tool_call", slow, async (agent) => {
    const run = await stalledRun(agent, stalls["a busy loop in pre_tool_call"]!);
    expectDeny(run, deadlineReason);
    expect(run.heldMs).toBeLessThan(wholeCallMs + marginMs);
  });

  it("a config module that spins at load (the startup stall limit is 10 s)", slow, async () => {
    const run = await stalledRun(
      "claude-code",
      () => ({}),
      (dir) => `${mark(dir)}\nfor (;;) {}\nexport default {};\n`,
    );
    expectDeny(run, deadlineReason);
    expect(run.heldMs).toBeLessThan(wholeCallMs + marginMs);
  });

  it("the per-hook stall limit still wins when it comes first", slow, async () => {
    const run = await stalledRun("claude-code", stalls["a busy loop in pre_tool_call"]!, () => "export default { hookTimeoutMs: 200 };\n");
    // The stall limit (1200 ms) is the nearer one; on a busy machine the whole-call deadline may still land first.
    expectDeny(run, /held the hook's thread for more than 1200 ms|no decision within 2500 ms/);
  });
});
