import { execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { DecisionRecord } from "@toolgate/host";
import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir, removeTempDirs, writeFiles } from "../../helpers/cli-harness.js";
import { mainPath, parseAnswer, policyPlugin, runHook, tsxLoader } from "../../helpers/hook-harness.js";

afterAll(removeTempDirs);

function project(files: Record<string, string> = {}): string {
  const dir = makeTempDir("repo", "hook-records-");
  writeFiles(dir, { "plugins/policy.mjs": policyPlugin.replace("__CWD__", dir), ...files });
  return dir;
}

function recordsIn(dir: string): DecisionRecord[] {
  const path = join(dir, ".toolgate", "decisions.jsonl");
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as DecisionRecord);
}

/** Each agent's pre-tool input for a shell command, and the session id it carries. */
const inputs: Record<string, (dir: string, command: string) => unknown> = {
  "claude-code": (cwd, command) => ({
    hook_event_name: "PreToolUse",
    session_id: "s-claude",
    transcript_path: "",
    cwd,
    tool_name: "Bash",
    tool_input: { command },
    tool_use_id: "toolu_1",
  }),
  "gemini-cli": (cwd, command) => ({
    session_id: "s-gemini",
    transcript_path: "",
    cwd,
    hook_event_name: "BeforeTool",
    timestamp: "2026-01-01T00:00:00Z",
    tool_name: "run_shell_command",
    tool_input: { command },
  }),
  codex: (cwd, command) => ({
    session_id: "s-codex",
    transcript_path: null,
    cwd,
    hook_event_name: "PreToolUse",
    model: "gpt-5",
    turn_id: "t1",
    tool_name: "Bash",
    tool_input: { command },
    tool_use_id: "call_1",
  }),
  "copilot-cli": (cwd, command) => ({ timestamp: 1704614600000, cwd, toolName: "bash", toolArgs: JSON.stringify({ command }) }),
};

describe.concurrent("toolgate hook writes one record per call to .toolgate/decisions.jsonl, on disk by the time it exits", () => {
  it.each(Object.keys(inputs))("%s", async (agent) => {
    const dir = project();
    const blocked = await runHook(agent, inputs[agent]!(dir, "rm -rf dist"));
    expect(blocked.code).toBe(2);
    // Read as soon as the process has exited: the record was not left behind.
    expect(recordsIn(dir)).toEqual([
      expect.objectContaining({
        v: 1,
        surface: `hook:${agent}`,
        kind: "shell",
        verdict: "block",
        outcome: "blocked",
        source: { kind: "plugin", name: "policy" },
        participants: [expect.objectContaining({ kind: "plugin", name: "policy", action: "block", message: "rm -rf is not allowed here" })],
      }),
    ]);
    const allowed = await runHook(agent, inputs[agent]!(dir, "ls"));
    expect(allowed.code).toBe(0);
    const [first, second] = recordsIn(dir);
    expect(second).toMatchObject({ verdict: "allow", participants: [{ action: "none" }] });
    expect(second!.outcome).toBeUndefined();
    expect(second!.policy).toBe(first!.policy);
    if (agent !== "copilot-cli") expect(first!.session).toBe(`s-${agent.split("-")[0]}`);
    expect(readFileSync(join(dir, ".toolgate", ".gitignore"), "utf8")).toBe("*\n");
  });
});

describe("toolgate hook and the decisions log setting", () => {
  it("decisions.log: false writes nothing", async () => {
    const dir = project({ "toolgate.config.mjs": "export default { decisions: { log: false } };" });
    expect((await runHook("claude-code", inputs["claude-code"]!(dir, "rm -rf /"))).code).toBe(2);
    expect(existsSync(join(dir, ".toolgate"))).toBe(false);
  });

  it("a log whose open would block for ever (a FIFO nobody reads) neither delays the answer nor holds the process, and is reported once", async () => {
    const dir = project({ "toolgate.config.mjs": 'export default { decisions: { log: "stuck.fifo" } };' });
    execFileSync("mkfifo", [join(dir, "stuck.fifo")]);
    const child = spawn(process.execPath, ["--import", tsxLoader, mainPath, "hook", "claude-code"], { cwd: dir });
    const started = performance.now();
    let answeredAt = 0;
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on("data", (chunk: Buffer) => {
      answeredAt ||= performance.now();
      stdout += chunk.toString();
    });
    child.stdin.end(JSON.stringify(inputs["claude-code"]!(dir, "rm -rf /")));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    const exitedAt = performance.now();
    expect(code).toBe(2);
    expect(parseAnswer({ code, stdout, stderr: "" })).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny" } });
    // Held by the FIFO, it would never end; a loaded machine may take a few seconds to end a process.
    expect(exitedAt - answeredAt).toBeLessThan(5000);
    expect(stderr.match(/cannot write the decisions log .*stuck\.fifo \(ENXIO\)/g)).toHaveLength(1);
    console.log(`stuck log: answer after ${(answeredAt - started).toFixed(0)} ms, exit ${(exitedAt - answeredAt).toFixed(0)} ms after the answer`);
  });
});
