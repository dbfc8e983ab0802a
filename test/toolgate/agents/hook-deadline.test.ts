import { execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir, removeTempDirs, writeFiles } from "../../helpers/cli-harness.js";
import { asAgentRuns, findProjectCli, hookCommandFor } from "../../../packages/toolgate/src/cli/hook-command.js";
import { agentProtocols } from "../../../packages/toolgate/src/agents/agents.js";
import { outputOf } from "../../helpers/child-output.js";
import { installToolgateBin, runHook, type HookRun } from "../../helpers/hook-harness.js";

afterAll(removeTempDirs);

/**
 * Issue #19 point 5: plugin code that holds its thread is cut off at the hook's deadline and the call
 * denied, and a deny holds whatever a plugin writes to file descriptor 1.
 */

const hookTimeoutMs = 300;
/** What the hook documents: a thread silent for hookTimeoutMs + 1000 ms is stuck. */
const stallLimitMs = hookTimeoutMs + 1000;
/** Stopping the thread, killing its processes, exiting, and a loaded 2-core machine. */
const marginMs = 1500;

const allowJson = JSON.stringify({
  hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" },
  decision: "allow",
  permissionDecision: "allow",
});

/**
 * Misbehaves according to the command it is asked about, writing the time it starts holding the thread
 * to `blocked-at` and the processes it starts to `pids`, in the project folder.
 */
const trapPlugin = (dir: string) => `
import { appendFileSync, writeFileSync, writeSync } from "node:fs";
import { execSync } from "node:child_process";
const dir = ${JSON.stringify(dir)};
const mark = () => writeFileSync(dir + "/blocked-at", String(Date.now()));
const sh = (command, options) => execSync(command, { cwd: dir, ...options });
export default {
  name: "trap",
  hooks: {
    pre_tool_call(call) {
      const command = String(call.args.command);
      if (command === "spoil-and-block") {
        writeSync(1, ${JSON.stringify(`${allowJson}\n`)});
        sh("echo " + ${JSON.stringify(`'${allowJson}'`)}, { stdio: "inherit" });
        return { action: "block", message: "no, whatever stdout says" };
      }
      if (command === "spoil-and-spin") {
        writeSync(1, ${JSON.stringify(`${allowJson}\n`)});
        sh("echo " + ${JSON.stringify(`'${allowJson}'`)}, { stdio: "inherit" });
        mark();
        for (;;) {}
      }
      mark();
      if (command === "busy-loop") for (;;) {}
      if (command === "regex") return /^(a+)+$/.test("a".repeat(64) + "!") ? undefined : { action: "allow" };
      if (command === "exec-sleep") sh("echo $$ >> pids; exec sleep 30");
      if (command === "exec-grandchild") sh("sleep 30 & echo $! >> pids; echo $$ >> pids; wait");
    },
  },
};
`;

const spinAtLoad = (dir: string) => `
import { writeFileSync } from "node:fs";
writeFileSync(${JSON.stringify(`${dir}/blocked-at`)}, String(Date.now()));
for (;;) {}
export default { name: "spin-at-load" };
`;

/**
 * The watchdog kills the processes an `execSync` waits for, then has the thread answer through the
 * inspector. The released `execSync` may return first: the hook then ends after its timeout and the host
 * denies with that. Both deny in time; either reason is right.
 */
const releasedByTheKill = new RegExp(`held the hook's thread for more than ${stallLimitMs} ms|pre_tool_call timed out after ${hookTimeoutMs} ms`);

type Agent = "claude-code" | "codex" | "gemini-cli" | "copilot-cli";

function preInput(agent: Agent, cwd: string, command: string): Record<string, unknown> {
  if (agent === "gemini-cli") return { session_id: "s", cwd, hook_event_name: "BeforeTool", tool_name: "run_shell_command", tool_input: { command } };
  if (agent === "copilot-cli") return { timestamp: 1, cwd, toolName: "bash", toolArgs: JSON.stringify({ command }) };
  return { session_id: "s", cwd, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command }, tool_use_id: "toolu_1" };
}

/**
 * The decision as the agent reads it: exit code 2 blocks, whatever stdout holds (Claude Code, Codex and
 * Gemini CLI document it; Copilot CLI 1.0.102 does it, and with exit code 0 it lets a call with a line
 * ahead of the JSON deny run).
 */
function agentSees(run: HookRun): "deny" | "allow" | "other" {
  return run.code === 2 ? "deny" : run.code === 0 ? "allow" : "other";
}

function project(files: (dir: string) => Record<string, string>): string {
  const dir = makeTempDir("repo", "hook-deadline-");
  writeFiles(dir, { "toolgate.config.mjs": `export default { hookTimeoutMs: ${hookTimeoutMs} };\n`, ...files(dir) });
  return dir;
}

async function timedRun(agent: Agent, dir: string, command: string): Promise<HookRun & { heldMs: number }> {
  const run = await runHook(agent, preInput(agent, dir, command));
  const endedAt = Date.now();
  expect(existsSync(join(dir, "blocked-at")), `the plugin never started holding the thread (stderr: ${run.stderr})`).toBe(true);
  return { ...run, heldMs: endedAt - Number(readFileSync(join(dir, "blocked-at"), "utf8")) };
}

/** Alive and not a zombie waiting for its parent. */
function isAlive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}

const agents: Agent[] = ["claude-code", "codex", "gemini-cli", "copilot-cli"];

describe.concurrent.each(agents)("toolgate hook %s with plugin code that holds the thread", (agent) => {
  it.each(["busy-loop", "regex", "exec-sleep", "exec-grandchild"])("%s: denied within the deadline, no process left", async (command) => {
    const dir = project((at) => ({ "plugins/trap.mjs": trapPlugin(at) }));
    const run = await timedRun(agent, dir, command);
    expect(agentSees(run), run.stderr).toBe("deny");
    expect(run.stdout + run.stderr).toMatch(command.startsWith("exec-") ? releasedByTheKill : `held the hook's thread for more than ${stallLimitMs} ms`);
    expect(run.heldMs).toBeLessThan(stallLimitMs + marginMs);
    const pids = existsSync(join(dir, "pids")) ? readFileSync(join(dir, "pids"), "utf8").trim().split("\n").map(Number) : [];
    expect(pids.length).toBe(command === "exec-sleep" ? 1 : command === "exec-grandchild" ? 2 : 0);
    for (const pid of pids) expect(isAlive(pid), `process ${pid} outlived the hook`).toBe(false);
  });

  it("a module that spins at load: denied within the deadline", async () => {
    const dir = project((at) => ({ "plugins/spin.mjs": spinAtLoad(at) }));
    const run = await timedRun(agent, dir, "ls");
    expect(agentSees(run), run.stderr).toBe("deny");
    expect(run.heldMs).toBeLessThan(stallLimitMs + marginMs);
  });

  it("an allow written to file descriptor 1 by the plugin and its child does not spoil a block", async () => {
    const dir = project((at) => ({ "plugins/trap.mjs": trapPlugin(at) }));
    const run = await runHook(agent, preInput(agent, dir, "spoil-and-block"));
    expect(run.stdout).toContain('"allow"');
    expect(agentSees(run), run.stdout).toBe("deny");
    expect(run.stdout + run.stderr).toContain("no, whatever stdout says");
  });

  it("nor a deny for a plugin cut off after writing it", async () => {
    const dir = project((at) => ({ "plugins/trap.mjs": trapPlugin(at) }));
    const run = await timedRun(agent, dir, "spoil-and-spin");
    expect(run.stdout).toContain('"allow"');
    expect(agentSees(run), run.stdout).toBe("deny");
    expect(run.heldMs).toBeLessThan(stallLimitMs + marginMs);
  });
});

describe.concurrent.each(agents)("toolgate hook %s, as init installs it, ended by a signal nothing can catch", (agent) => {
  it.each([
    ["process.abort()", "process.abort();"],
    ["SIGKILL", "process.kill(process.pid, 'SIGKILL');"],
  ])("a plugin that ends the process with %s: the command's fallback denies", async (_how, body) => {
    const dir = project(() => ({ "plugins/killer.mjs": `export default { name: "killer", hooks: { pre_tool_call() { ${body} } } };` }));
    installToolgateBin(dir);
    const installed = asAgentRuns(agent, hookCommandFor(agent, agentProtocols[agent].startFailureFallback, findProjectCli(dir)), dir);
    const child = spawn("sh", ["-c", installed.command], { cwd: dir, env: installed.env });
    const output = outputOf(child);
    child.stdin.end(JSON.stringify(preInput(agent, dir, "ls")));
    expect(agentSees(await output)).toBe("deny");
  });
});

describe.concurrent.each(agents)("toolgate hook %s, as init installs it, with plugin code held in native code", (agent) => {
  it("a read that never returns (a FIFO with no writer): the watchdog answers and kills the process, the command's fallback denies", async () => {
    const dir = project((at) => ({
      "plugins/fifo.mjs": `import { readFileSync, writeFileSync } from "node:fs";
export default { name: "fifo", hooks: { pre_tool_call() { writeFileSync(${JSON.stringify(`${at}/blocked-at`)}, String(Date.now())); readFileSync(${JSON.stringify(`${at}/fifo`)}); } } };`,
    }));
    execFileSync("mkfifo", [join(dir, "fifo")]);
    installToolgateBin(dir);
    const installed = asAgentRuns(agent, hookCommandFor(agent, agentProtocols[agent].startFailureFallback, findProjectCli(dir)), dir);
    const child = spawn("sh", ["-c", installed.command], { cwd: dir, env: installed.env });
    const output = outputOf(child);
    child.stdin.end(JSON.stringify(preInput(agent, dir, "ls")));
    const run = await output;
    const heldMs = Date.now() - Number(readFileSync(join(dir, "blocked-at"), "utf8"));
    expect(agentSees(run), run.stderr).toBe("deny");
    expect(run.stdout + run.stderr).toContain(`held the hook's thread for more than ${stallLimitMs} ms`);
    // The last resort writes the agent's own deny on stdout, with the reason in it, before the kill.
    const deny = agentProtocols[agent].denyForFailure("REASON", "pre");
    if (deny.body !== undefined) {
      const [body] = JSON.stringify(deny.body)
        .split("REASON")
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
      expect(run.stdout.split("\n")[0]).toMatch(new RegExp(`^${body}[^"]*held the hook's thread`));
    }
    // The last resort comes one second after the main thread was asked to answer.
    expect(heldMs).toBeLessThan(stallLimitMs + 1000 + marginMs);
  });
});
