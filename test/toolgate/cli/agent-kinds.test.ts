import { toolKindAgents } from "@toolgate/host";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentNames } from "../../../packages/toolgate/src/agents/agents.js";
import { parseAnswer, runHook } from "../../helpers/hook-harness.js";
import { post, startServe, type Served } from "../../helpers/serve-harness.js";
import { makeTempDir, parseJsonLines, removeTempDirs, runCli, writeFiles } from "../../helpers/cli-harness.js";

/**
 * Every surface gives a tool the kind the agents' hooks give it: `explain`, `run` and `serve`'s
 * `/v1/check` read `Bash` as a shell as `toolgate hook claude-code` does. The policy here reads the
 * kind only, never the tool's name, so a surface that leaves `Bash` without a kind lets `cat .env` through.
 */
const kindPolicy = `
export default {
  name: "no-env",
  hooks: {
    pre_tool_call(call) {
      if ((call.kind === "shell" || call.kind === "read") && JSON.stringify(call.args).includes(".env"))
        return { action: "block", message: "no .env for a " + call.kind + " tool" };
    },
  },
};
`;

const catEnv = { command: "cat .env" };
const blockedAs = (kind: string) => `Tool call blocked by plugin "no-env": no .env for a ${kind} tool`;

let dir: string;
beforeAll(() => {
  dir = makeTempDir("os", "agent-kinds-");
  writeFiles(dir, { "plugins/no-env.mjs": kindPolicy });
});
afterAll(removeTempDirs);

interface Explained {
  call: { name: string; kind?: string };
  verdict: { action: string; message?: string };
}

async function explain(tool: string, args: unknown, ...options: string[]): Promise<Explained> {
  const run = await runCli(["explain", tool, JSON.stringify(args), "--json", "--cwd", dir, ...options]);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Explained;
}

describe("the one table of agent tool names to kinds", () => {
  it("names exactly the agents toolgate hooks", () => {
    expect([...toolKindAgents].sort()).toEqual([...agentNames].sort());
  });
});

describe("toolgate explain gives a tool the kind the hook gives it", () => {
  it("Bash is a shell without --agent, as `toolgate hook claude-code` reads it", async () => {
    const [explained, hook] = await Promise.all([
      explain("Bash", catEnv),
      runHook("claude-code", { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: catEnv, cwd: dir }, { cwd: dir }),
    ]);
    expect(explained.call.kind).toBe("shell");
    expect(explained.verdict).toMatchObject({ action: "block", message: "no .env for a shell tool" });
    expect(hook.code).toBe(2);
    expect(parseAnswer(hook)).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny", permissionDecisionReason: blockedAs("shell") } });
  });

  it("--agent reads the name as that agent's hook does", async () => {
    const [claude, gemini, read] = await Promise.all([
      explain("Bash", catEnv, "--agent", "claude-code"),
      explain("run_shell_command", catEnv, "--agent", "gemini-cli"),
      explain("Read", { file_path: ".env" }, "--agent", "claude-code"),
    ]);
    expect([claude.call.kind, gemini.call.kind, read.call.kind]).toEqual(["shell", "shell", "read"]);
    expect(gemini.verdict.message).toBe("no .env for a shell tool");
    expect(read.verdict.message).toBe("no .env for a read tool");
  });

  it("--kind still names the kind outright", async () => {
    const explained = await explain("Bash", catEnv, "--kind", "function");
    expect(explained.call.kind).toBe("function");
    expect(explained.verdict.action).toBe("allow");
  });

  it("a name no agent uses is a function", async () => {
    const run = await runCli(["explain", "lookup", JSON.stringify({ q: ".env" }), "--cwd", dir]);
    expect(run.stdout).toContain("lookup (kind function)");
    expect(run.stdout).toContain("verdict: ALLOW");
  });

  it("an agent it does not know is bad usage, naming the ones it knows", async () => {
    const run = await runCli(["explain", "Bash", JSON.stringify(catEnv), "--cwd", dir, "--agent", "claude"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("argument 'claude' is invalid. Allowed choices are claude-code, gemini-cli, codex, copilot-cli");
  });
});

describe("toolgate run gives each call the kind the hook gives its tool", () => {
  const calls = [
    { id: "c1", name: "Bash", args: catEnv },
    { id: "c2", name: "run_terminal_cmd", args: catEnv },
    { id: "c3", name: "Read", args: { file_path: ".env" } },
    { id: "c4", name: "Bash", args: catEnv, kind: "function" },
  ];

  it.each([[[] as string[]], [["--agent", "claude-code"]]])("with %j", async (options) => {
    const file = join(dir, "calls.jsonl");
    writeFiles(dir, { "calls.jsonl": calls.map((call) => JSON.stringify(call)).join("\n") });
    const run = await runCli(["run", file, "--json", "--cwd", dir, ...options]);
    expect(run.code, run.stderr).toBe(0);
    const outcomes = parseJsonLines(run.stdout) as { call: { id: string; kind?: string }; verdict: { action: string; message?: string } }[];
    expect(outcomes.map(({ call, verdict }) => [call.id, call.kind, verdict.action, verdict.message])).toEqual([
      ["c1", "shell", "block", "no .env for a shell tool"],
      ["c2", "shell", "block", "no .env for a shell tool"],
      ["c3", "read", "block", "no .env for a read tool"],
      ["c4", "function", "allow", undefined],
    ]);
  });
});

describe("serve's /v1/check gives the call the kind the hook gives its tool", () => {
  let served: Served;
  beforeAll(async () => {
    served = await startServe(["--cwd", dir]);
  }, 30_000);
  afterAll(() => served?.stop());

  const check = (body: unknown) => post(`${served.url}/v1/check`, body);

  it("with and without agent, Bash is a shell, and the hook endpoint agrees", async () => {
    const [withAgent, without, hook] = await Promise.all([
      check({ call: { id: "c1", name: "Bash", args: catEnv }, agent: "claude-code" }),
      check({ call: { id: "c2", name: "Bash", args: catEnv } }),
      post(`${served.url}/v1/hooks/claude-code`, { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: catEnv, cwd: dir }),
    ]);
    expect(withAgent.body.verdict).toMatchObject({ action: "block", message: "no .env for a shell tool" });
    expect(without.body.verdict).toMatchObject({ action: "block", message: "no .env for a shell tool" });
    expect(hook.body.hookSpecificOutput).toMatchObject({ permissionDecision: "deny", permissionDecisionReason: blockedAs("shell") });
  });

  it("agent gemini-cli reads run_shell_command as a shell; a call's own kind stays", async () => {
    const [gemini, own] = await Promise.all([
      check({ call: { id: "c3", name: "run_shell_command", args: catEnv }, agent: "gemini-cli" }),
      check({ call: { id: "c4", name: "Bash", args: catEnv, kind: "function" }, agent: "claude-code" }),
    ]);
    expect(gemini.body.verdict).toMatchObject({ action: "block", message: "no .env for a shell tool" });
    expect(own.body.verdict.action).toBe("allow");
  });

  it("an agent the table does not know is a 400 naming the ones it knows", async () => {
    const answer = await check({ call: { id: "c5", name: "Bash", args: catEnv }, agent: "claude" });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('"agent" must be one of claude-code, gemini-cli, codex, copilot-cli; got "claude"');
  });
});
