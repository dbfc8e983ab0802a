import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, parseJsonLines, removeTempDirs, runCli, writeFiles } from "../../helpers/cli-harness.js";

afterAll(removeTempDirs);

// Appends one line per pre_tool_call to hook-calls.log, so a test can count how often the hook fired.
const policyPlugin = `
import { appendFileSync } from "node:fs";
export default {
  name: "policy",
  hooks: {
    pre_tool_call(call) {
      appendFileSync(new URL("../hook-calls.log", import.meta.url), call.id + "\\n");
      if (call.name === "terminal" && String(call.args.command).includes("rm -rf"))
        return { action: "block", message: "rm -rf is not allowed here" };
      if (call.name === "write_file") return { action: "modify", args: { path: "/sandbox/" + call.args.path } };
      if (call.name === "deploy") return { action: "ask", message: "deploys need a human" };
    },
  },
};
`;

const calls = [
  { id: "call_1", name: "terminal", args: { command: "rm -rf /" }, kind: "shell" },
  { id: "call_2", name: "read_file", args: { path: "notes.txt" } },
  { id: "call_3", name: "write_file", args: { path: "out.txt", content: "hi" } },
];

function jsonl(lines: readonly unknown[]): string {
  return `${lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line))).join("\n")}\n`;
}

describe("toolgate run", () => {
  let cwd: string;
  let callsFile: string;

  beforeAll(() => {
    cwd = makeTempDir("os");
    callsFile = join(cwd, "calls.jsonl");
    writeFiles(cwd, { "plugins/policy.mjs": policyPlugin, "calls.jsonl": jsonl([calls[0], "", calls[1], calls[2]]) });
  });

  function hookCalls(): string[] {
    const log = join(cwd, "hook-calls.log");
    return existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : [];
  }

  it("prints each decision, the deciding plugin and the blocked call's tool message", async () => {
    const before = hookCalls().length;
    const { code, stdout, stderr } = await runCli(["run", callsFile, "--cwd", cwd]);

    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toContain("BLOCK by policy: rm -rf is not allowed here");
    const messageLine = stdout.split("\n").find((line) => line.trim().startsWith("openai message:"));
    const message = JSON.parse(messageLine!.trim().slice("openai message:".length)) as { role: string; tool_call_id: string; content: string };
    expect(message).toMatchObject({ role: "tool", tool_call_id: "call_1" });
    expect(message.content).toContain("rm -rf is not allowed here");
    expect(message.content).toContain('plugin "policy"');
    expect(stdout).toMatch(/call_2 {2}read_file[^\n]*\n {2}ALLOW\n {2}args: \{"path":"notes.txt"\}/);
    expect(stdout).toMatch(/call_3 {2}write_file[^\n]*\n {2}ALLOW\n {2}args \(modified\): \{"path":"\/sandbox\/out.txt","content":"hi"\}/);
    expect(stdout).toContain("3 calls: 1 blocked, 2 allowed, 0 ask (dry run: no tool was executed)");
    // pre_tool_call fired once per call: fetching the blocked result did not gate the call again.
    expect(hookCalls().slice(before)).toEqual(["call_1", "call_2", "call_3"]);
    // One record per call, written by the time the command exits, naming the run surface.
    const records = readFileSync(join(cwd, ".toolgate/decisions.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records.slice(-3).map(({ surface, callId, verdict, outcome }) => ({ surface, callId, verdict, outcome }))).toEqual([
      { surface: "run", callId: "call_1", verdict: "block", outcome: "blocked" },
      { surface: "run", callId: "call_2", verdict: "allow", outcome: undefined },
      { surface: "run", callId: "call_3", verdict: "allow", outcome: undefined },
    ]);
  });

  it("prints one JSON object per call with --json, and the message in the chosen format", async () => {
    const { code, stdout } = await runCli(["run", callsFile, "--cwd", cwd, "--json", "--format", "anthropic"]);

    expect(code).toBe(0);
    const [blocked, allowed, modified] = parseJsonLines(stdout) as { call: unknown; verdict: Record<string, unknown>; message?: Record<string, unknown> }[];
    expect(blocked).toEqual({
      call: calls[0],
      verdict: { action: "block", message: "rm -rf is not allowed here", plugin: "policy", source: { kind: "plugin", name: "policy" }, args: calls[0]!.args },
      message: { type: "tool_result", tool_use_id: "call_1", content: 'Tool call blocked by plugin "policy": rm -rf is not allowed here', is_error: true },
    });
    // A call without a kind gets the one the agents' hooks give its tool: Gemini CLI's read_file reads.
    expect(allowed).toEqual({ call: { ...calls[1], kind: "read" }, verdict: { action: "allow", args: { path: "notes.txt" } } });
    expect(modified?.verdict).toEqual({ action: "allow", args: { path: "/sandbox/out.txt", content: "hi" } });
    expect(modified).not.toHaveProperty("message");
  });

  it("prints an ask verdict's message", async () => {
    const file = join(cwd, "ask.jsonl");
    writeFiles(cwd, { "ask.jsonl": jsonl([{ id: "call_9", name: "deploy", args: {} }]) });

    const { code, stdout } = await runCli(["run", file, "--cwd", cwd]);

    expect(code).toBe(0);
    expect(stdout).toContain("ASK by policy: deploys need a human");
  });

  it("exits 2 naming the file and line for a line that is not JSON, and gates nothing", async () => {
    writeFiles(cwd, { "bad.jsonl": jsonl([calls[0], "", "{not json"]) });
    const before = hookCalls().length;

    const { code, stdout, stderr } = await runCli(["run", "bad.jsonl", "--cwd", cwd], { cwd });

    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toMatch(/^error: bad\.jsonl:3 is not valid JSON: /);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(hookCalls()).toHaveLength(before);
  });

  it("exits 2 naming the line and the field for a line that is not a valid call", async () => {
    writeFiles(cwd, { "invalid.jsonl": jsonl([calls[0], { id: "call_2", name: "read_file" }]) });

    const { code, stderr } = await runCli(["run", "invalid.jsonl", "--cwd", cwd], { cwd });

    expect(code).toBe(2);
    expect(stderr.trim()).toBe("error: invalid.jsonl:2 is malformed: args is required");
  });

  it("gives a call without an id one of its own (line-<n>)", async () => {
    writeFiles(cwd, {
      "no-ids.jsonl": jsonl([
        { name: "terminal", args: { command: "rm -rf /" }, kind: "shell" },
        { name: "read_file", args: { path: "a" } },
      ]),
    });
    const { code, stdout, stderr } = await runCli(["run", "no-ids.jsonl", "--cwd", cwd, "--json"], { cwd });
    expect(code, stderr).toBe(0);
    const outcomes = parseJsonLines(stdout) as { call: { id: string }; verdict: { action: string } }[];
    expect(outcomes.map((outcome) => [outcome.call.id, outcome.verdict.action])).toEqual([
      ["line-1", "block"],
      ["line-2", "allow"],
    ]);
  });

  it("decides the calls of a decisions log again, and says how many records carry no arguments", async () => {
    const record = (callId: string, tool: string, kind: string, args?: unknown) => ({
      v: 1,
      time: "2026-11-27T10:00:00.000Z",
      surface: "hook:claude-code",
      session: "s",
      callId,
      tool,
      kind,
      verdict: "allow",
      participants: [],
      argsDigest: "sha256:00",
      ...(args === undefined ? {} : { args }),
      policy: "sha256:0123456789abcdef",
      ms: 1,
    });
    writeFiles(cwd, {
      "decisions.jsonl": jsonl([
        record("r1", "terminal", "shell", { command: "rm -rf /" }),
        record("r2", "terminal", "shell"),
        record("r3", "read_file", "function", { path: "notes.txt" }),
      ]),
    });
    const { code, stdout, stderr } = await runCli(["run", "decisions.jsonl", "--cwd", cwd, "--json"], { cwd });
    expect(code).toBe(0);
    const outcomes = parseJsonLines(stdout) as { call: { id: string; kind?: string }; verdict: { action: string } }[];
    expect(outcomes.map((outcome) => [outcome.call.id, outcome.verdict.action])).toEqual([
      ["r1", "block"],
      ["r3", "allow"],
    ]);
    expect(outcomes[0]!.call.kind).toBe("shell");
    expect(stderr).toContain(
      '1 of the records in decisions.jsonl carry only a digest of their arguments and were not decided again (record them with decisions: { args: "full" })',
    );
  });

  it("exits 2 for a file that does not exist", async () => {
    const { code, stderr } = await runCli(["run", "missing.jsonl", "--cwd", cwd], { cwd });

    expect(code).toBe(2);
    expect(stderr.trim()).toBe("error: missing.jsonl does not exist");
  });

  it("exits 2 for an unknown --format", async () => {
    const { code, stderr } = await runCli(["run", callsFile, "--cwd", cwd, "--format", "xml"]);

    expect(code).toBe(2);
    expect(stderr).toContain("Allowed choices are openai, responses, anthropic, mcp, ai-sdk");
  });

  it("still replays the calls, every one blocked for the plugin that failed to load, and exits 1", async () => {
    const project = makeTempDir("os");
    writeFiles(project, { "plugins/policy.mjs": policyPlugin, "plugins/broken.mjs": "export default 42;\n", "calls.jsonl": jsonl([calls[0]]) });

    const { code, stdout, stderr } = await runCli(["run", join(project, "calls.jsonl"), "--cwd", project]);

    expect(code).toBe(1);
    expect(stdout).toContain("BLOCK by broken");
    expect(stdout).toContain('plugin "broken" failed to load');
    expect(stderr).toContain(`${project}/plugins/broken.mjs`);
    expect(stderr).toContain("error: 1 plugin failed to load (broken)");
  });
});
