import { chmodSync, existsSync, readFileSync } from "node:fs";
import { createHost, type HostOptions } from "@toolgate/host";
import { afterEach, describe, expect, it } from "vitest";
import { recordEvents } from "../../helpers/recorders.js";
import { createTempProject, type TempProject } from "../../helpers/temp-project.js";

const projects: TempProject[] = [];
afterEach(() => {
  for (const project of projects.splice(0)) project.remove();
});

let ran = 0;
const tools = { bash: { kind: "shell", execute: () => (ran++, "ran") }, read_file: { execute: () => "read" } };

/** A project with executable scripts under guards/. */
function project(scripts: Record<string, string>): TempProject {
  const created = createTempProject(Object.fromEntries(Object.entries(scripts).map(([name, body]) => [`guards/${name}`, `#!/bin/sh\n${body}\n`])));
  for (const name of Object.keys(scripts)) chmodSync(created.path(`guards/${name}`), 0o755);
  projects.push(created);
  return created;
}

function hostWith(dir: string, hooks: NonNullable<HostOptions["hooks"]>, more: HostOptions = {}) {
  return createHost({ cwd: dir, pluginsDir: false, configFile: false, logger: false, tools, hooks, ...more });
}

/** Alive and not a zombie: a killed grandchild may wait for a reaper that never comes in a container. */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

const call = (args: Record<string, unknown> = { command: "ls" }) => ({ id: "call-1", name: "bash", args, kind: "shell" });

describe("command hooks", () => {
  it("get one JSON object on stdin and the same in TOOLGATE_* variables, never on the command line", async () => {
    const dir = project({ "record.sh": 'cat > "$0.stdin"; env | grep ^TOOLGATE_ | sort > "$0.env"; echo "$@" > "$0.argv"' }).dir;
    const host = await hostWith(dir, { pre_tool_call: [{ command: "./guards/record.sh" }] }, { session: { id: "s-1" } });
    expect((await host.callTool(call({ command: "rm -rf /tmp/x" }))).status).toBe("ok");
    const input = JSON.parse(readFileSync(`${dir}/guards/record.sh.stdin`, "utf8"));
    expect(input).toEqual({
      hook_event_name: "pre_tool_call",
      tool_name: "bash",
      tool_input: { command: "rm -rf /tmp/x" },
      tool_call_id: "call-1",
      tool_kind: "shell",
      session_id: "s-1",
      cwd: dir,
    });
    const env = readFileSync(`${dir}/guards/record.sh.env`, "utf8");
    expect(env).toContain("TOOLGATE_TOOL_NAME=bash");
    expect(env).toContain('TOOLGATE_TOOL_INPUT={"command":"rm -rf /tmp/x"}');
    expect(readFileSync(`${dir}/guards/record.sh.argv`, "utf8").trim()).toBe("");
    await host.close();
  });

  it("exit 1 with a reason on stderr fails closed: the call is blocked with that reason, naming the hook", async () => {
    ran = 0;
    const dir = project({ "no-rm.sh": 'grep -q "rm -rf" && { echo "no rm -rf in this repo" >&2; exit 1; }; exit 0' }).dir;
    const host = await hostWith(dir, { pre_tool_call: [{ matcher: "bash|terminal", command: "./guards/no-rm.sh" }] });
    const seen = recordEvents(host.events);
    const result = await host.callTool(call({ command: "rm -rf /" }));
    expect(result.status).toBe("blocked");
    expect(result.content).toContain('command hook "./guards/no-rm.sh"');
    expect(result.content).toContain("exited with status 1: no rm -rf in this repo");
    expect(ran).toBe(0);
    expect(seen.map((event) => event.type)).toEqual(["hook:error", "decision", "tool:blocked", "tool:end"]);
    expect(seen[1]?.payload.source).toEqual({ kind: "command", name: "./guards/no-rm.sh" });
    expect((await host.callTool(call({ command: "ls" }))).status).toBe("ok");
    await host.close();
  });

  it('with onHookError "allow" only exit 2 vetoes (Claude Code); stderr with exit 0 is no veto', async () => {
    const dir = project({
      "one.sh": "echo oops >&2; exit 1",
      "warn.sh": "echo just a warning >&2; exit 0",
      "two.sh": "echo '  blocked by policy  ' >&2; exit 2",
    }).dir;
    const host = await hostWith(dir, { pre_tool_call: [{ command: "./guards/one.sh" }, { command: "./guards/warn.sh" }] }, { onHookError: "allow" });
    expect((await host.callTool(call())).status).toBe("ok");
    await host.close();
    const strict = await hostWith(dir, { pre_tool_call: [{ command: "./guards/two.sh" }] }, { onHookError: "allow" });
    const result = await strict.callTool(call());
    expect(result.status).toBe("blocked");
    expect(result.content).toMatch(/: blocked by policy$/);
    await strict.close();
  });

  it("exit 2 with no output blocks with a message naming the hook", async () => {
    const dir = project({ "silent.sh": "exit 2" }).dir;
    const host = await hostWith(dir, { pre_tool_call: [{ command: "./guards/silent.sh" }] });
    expect((await host.checkToolCall(call())).message).toBe('blocked by command hook "./guards/silent.sh" (exit status 2)');
    await host.close();
  });

  it("reads Claude Code's hookSpecificOutput, its legacy decision, docker agent's decision and toolgate's own", async () => {
    const dir = project({
      "claude.sh": `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"not on main"}}'`,
      "legacy.sh": `echo '{"decision":"block","reason":"legacy says no"}'`,
      "docker.sh": `echo '{"decision":"ask","reason":"a human should look"}'`,
      "rewrite.sh": `echo '{"hookSpecificOutput":{"permissionDecision":"allow","updatedInput":{"command":"ls -la"}}}'`,
      "own.sh": `echo '{"action":"allow","reason":"fine"}'`,
    }).dir;
    const verdictOf = async (script: string) => {
      const host = await hostWith(dir, { pre_tool_call: [{ command: `./guards/${script}` }] });
      const verdict = await host.checkToolCall(call());
      await host.close();
      return verdict;
    };
    expect(await verdictOf("claude.sh")).toMatchObject({ action: "block", message: "not on main", source: { kind: "command", name: "./guards/claude.sh" } });
    expect(await verdictOf("legacy.sh")).toMatchObject({ action: "block", message: "legacy says no" });
    expect(await verdictOf("docker.sh")).toMatchObject({ action: "ask", message: "a human should look" });
    expect(await verdictOf("rewrite.sh")).toMatchObject({ action: "allow", args: { command: "ls -la" } });
    expect(await verdictOf("own.sh")).toMatchObject({ action: "allow", message: "fine" });
  });

  it("stdout that is not a decision is a hook failure", async () => {
    const dir = project({ "chatty.sh": "echo checking the call..." }).dir;
    const host = await hostWith(dir, { pre_tool_call: [{ command: "./guards/chatty.sh" }] });
    const verdict = await host.checkToolCall(call());
    expect(verdict.action).toBe("block");
    expect(verdict.message).toContain("the output is not JSON: checking the call...");
    await host.close();
  });

  it("a hook that hangs is killed with its whole process tree at its timeout, and the call fails closed", async () => {
    const dir = project({ "hang.sh": 'echo $$ > "$0.pid"; sleep 30 & echo $! > "$0.child"; wait' }).dir;
    const host = await hostWith(dir, { pre_tool_call: [{ command: "./guards/hang.sh", timeout: 0.5 }] });
    const seen = recordEvents(host.events);
    const result = await host.callTool(call());
    expect(result.status).toBe("blocked");
    expect(result.content).toContain("timed out after 500 ms (failing closed)");
    expect(seen.find((event) => event.type === "hook:timeout")?.payload.timeoutMs).toBe(500);
    const pids = ["pid", "child"].map((file) => Number(readFileSync(`${dir}/guards/hang.sh.${file}`, "utf8")));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(pids.filter(isAlive)).toEqual([]);
    await host.close();
  });

  it("host.close() kills a running hook and the call ends blocked", async () => {
    const dir = project({ "slow.sh": 'echo $$ > "$0.pid"; sleep 30' }).dir;
    const host = await hostWith(dir, { pre_tool_call: [{ command: "./guards/slow.sh", timeout: 60 }] });
    const pending = host.callTool(call());
    while (!existsSync(`${dir}/guards/slow.sh.pid`)) await new Promise((resolve) => setTimeout(resolve, 10));
    await host.close();
    expect((await pending).status).toBe("blocked");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(isAlive(Number(readFileSync(`${dir}/guards/slow.sh.pid`, "utf8")))).toBe(false);
  });

  it("a matcher limits the hook to whole tool names", async () => {
    const dir = project({ "deny.sh": "exit 2" }).dir;
    const host = await hostWith(dir, { pre_tool_call: [{ command: "./guards/deny.sh", matcher: "bas" }] });
    expect((await host.checkToolCall(call())).action).toBe("allow");
    await host.close();
  });

  it("post_tool_call hooks get the tool's response and fail open", async () => {
    const dir = project({ "audit.sh": 'cat > "$0.stdin"; exit 1' }).dir;
    const host = await hostWith(dir, { post_tool_call: [{ command: "./guards/audit.sh" }] });
    const seen = recordEvents(host.events);
    expect((await host.callTool(call())).status).toBe("ok");
    const input = JSON.parse(readFileSync(`${dir}/guards/audit.sh.stdin`, "utf8"));
    expect(input).toMatchObject({ hook_event_name: "post_tool_call", tool_response: { status: "ok", content: "ran" } });
    expect(seen.some((event) => event.type === "hook:error")).toBe(true);
    await host.close();
  });

  it("a missing or non-executable hook file fails at load, naming the config key", async () => {
    const created = project({ "plain.sh": "exit 0" });
    chmodSync(created.path("guards/plain.sh"), 0o644);
    await expect(hostWith(created.dir, { pre_tool_call: [{ command: "./guards/missing.sh" }] })).rejects.toThrow(
      /createHost\(\): hooks\.pre_tool_call\[0\]\.command "\.\/guards\/missing\.sh" cannot run: .*missing\.sh does not exist/,
    );
    await expect(hostWith(created.dir, { pre_tool_call: [{ command: "./guards/plain.sh" }] })).rejects.toThrow(/is not executable \(chmod \+x/);
    await expect(hostWith(created.dir, { pre_tool_call: [{ command: "no-such-program-xyz --check" }] })).rejects.toThrow(/not an executable found on PATH/);
  });

  it("every call is decided once: one process per call, also in a batch", async () => {
    const dir = project({ "count.sh": 'echo x >> "$0.count"' }).dir;
    const host = await hostWith(dir, { pre_tool_call: [{ command: "./guards/count.sh" }] });
    await host.callTools([call(), { ...call(), id: "call-2" }, { ...call(), id: "call-3" }]);
    const checked = { ...call(), id: "call-4" };
    await host.checkToolCall(checked);
    await host.callTool(checked, { skipPreToolCallHook: true });
    expect(readFileSync(`${dir}/guards/count.sh.count`, "utf8").trim().split("\n")).toHaveLength(4);
    await host.close();
  });
});
