// One shadow config through every surface: `toolgate hook claude-code` and `gemini-cli`, `toolgate serve`
// and `toolgate mcp-proxy` in real processes, and the AI SDK adapter in generateText. A shadow plugin, a shadow rule and a shadow command hook that fails
// all object to a call; the call goes through on every surface, and each surface's decision record lists
// the three as shadow participants. An enforced rule beside them still blocks. Then `toolgate decisions
// --shadow` reads back the calls the shadow policy would have changed.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gateTools } from "@toolgate/ai-sdk";
import { createHost, type DecisionRecord } from "@toolgate/host";
import { generateText, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { makeTempDir, parseJsonLines, removeTempDirs, runCli, writeFiles } from "../../helpers/cli-harness.js";
import { parseAnswer, runHook } from "../../helpers/hook-harness.js";
import { connectThroughProxy, echoServerPath, type Connection } from "../../helpers/proxy-harness.js";
import { post, startServe, type Served } from "../../helpers/serve-harness.js";

vi.setConfig({ testTimeout: 90_000 });

const failingCommand = `${JSON.stringify(process.execPath)} -e "process.exit(1)"`;
const files = {
  "plugins/no-secrets.mjs": `export default { name: "no-secrets", hooks: { pre_tool_call: (call) => String(call.args.text ?? "").includes("secret") ? { action: "block", message: "no secrets in echoes" } : undefined } };`,
  "toolgate.config.json": JSON.stringify({
    pluginsDir: false,
    protectPolicy: "off",
    plugins: [["./plugins/no-secrets.mjs", {}, { shadow: true }]],
    hooks: { pre_tool_call: [{ command: failingCommand, timeout: 30, shadow: true }] },
    permissions: { deny: ["*:text=*forbidden*", "fail"], shadow: { deny: ["*:text=*secret*", "count"] } },
  }),
};

/** The three shadow participants every surface must record, in the order they run (rules, hooks, plugins). */
const shadowParticipants = [
  { kind: "rule", name: "*:text=*secret*", action: "block", shadow: true },
  { kind: "command", name: failingCommand, action: "error", shadow: true },
  { kind: "plugin", name: "no-secrets", action: "block", shadow: true },
];

interface LoggedRecord {
  surface: string;
  callId: string;
  verdict: string;
  participants: { kind: string; name: string; action: string; shadow?: true }[];
}

let dir: string;
let served: Served;
let proxy: Connection;
beforeAll(async () => {
  dir = makeTempDir("repo", "shadow-surfaces-");
  writeFiles(dir, files);
  served = await startServe(["--cwd", dir]);
  proxy = await connectThroughProxy(dir, ["--", process.execPath, echoServerPath]);
}, 60_000);
afterAll(async () => {
  await proxy?.close();
  await served?.stop();
  removeTempDirs();
});

function recordsOf(surface: string): LoggedRecord[] {
  const log = readFileSync(join(dir, ".toolgate/decisions.jsonl"), "utf8");
  return (parseJsonLines(log) as LoggedRecord[]).filter((record) => record.surface === surface);
}

const brief = (record: LoggedRecord) => ({
  verdict: record.verdict,
  participants: record.participants.map(({ kind, name, action, shadow }) => ({ kind, name, action, ...(shadow ? { shadow } : {}) })),
});

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } };

const claude = (text: string, id: string) => ({
  hook_event_name: "PreToolUse",
  session_id: "s1",
  transcript_path: "",
  cwd: dir,
  tool_name: "echo",
  tool_input: { text },
  tool_use_id: id,
});

describe("a shadow plugin, rule and failing hook never decide, on every surface", () => {
  it("toolgate hook claude-code: the call is allowed, the record lists the shadows; the enforced rule still denies", async () => {
    const run = await runHook("claude-code", claude("my secret", "t1"), { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(/deny|ask/);
    const denied = await runHook("claude-code", claude("forbidden", "t2"), { cwd: dir });
    expect(denied.code).toBe(2);
    const [allowed, blocked] = recordsOf("hook:claude-code");
    expect(brief(allowed!)).toEqual({ verdict: "allow", participants: shadowParticipants });
    expect(blocked!.verdict).toBe("block");
  });

  it("toolgate serve: /v1/check allows, the record lists the shadows; the enforced rule still blocks", async () => {
    const checked = await post(`${served.url}/v1/check`, { call: { id: "s1", name: "echo", args: { text: "my secret" } } });
    expect(checked.body.verdict).toMatchObject({ action: "allow" });
    const denied = await post(`${served.url}/v1/check`, { call: { id: "s2", name: "echo", args: { text: "forbidden" } } });
    expect(denied.body.verdict).toMatchObject({ action: "block", source: { kind: "rule", name: "*:text=*forbidden*" } });
    const [allowed] = recordsOf("serve");
    expect(brief(allowed!)).toEqual({ verdict: "allow", participants: shadowParticipants });
  });

  it("toolgate mcp-proxy: the upstream tool runs, the record lists the shadows; the enforced rule still refuses", async () => {
    const echoed = (await proxy.client.callTool({ name: "echo", arguments: { text: "my secret" } })) as CallToolResult;
    expect(echoed.isError).toBeFalsy();
    expect(echoed.content[0]).toMatchObject({ type: "text", text: "my secret" });
    const refused = (await proxy.client.callTool({ name: "echo", arguments: { text: "forbidden" } })) as CallToolResult;
    expect(refused.isError).toBe(true);
    const [allowed] = recordsOf("mcp-proxy");
    expect(brief(allowed!)).toEqual({ verdict: "allow", participants: shadowParticipants });
  });

  it("toolgate mcp-proxy: a tool a shadow rule denies outright stays listed; one an enforced rule denies is hidden", async () => {
    const { tools } = await proxy.client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toContain("count");
    expect(names).not.toContain("fail");
  });

  it("toolgate hook gemini-cli: no deny, the record lists the shadows", async () => {
    const input = {
      session_id: "s2",
      transcript_path: "",
      cwd: dir,
      hook_event_name: "BeforeTool",
      timestamp: "2026-01-01T00:00:00Z",
      tool_name: "echo",
      tool_input: { text: "my secret" },
    };
    const run = await runHook("gemini-cli", input, { cwd: dir });
    expect(run.code).toBe(0);
    expect(JSON.stringify(parseAnswer(run))).not.toMatch(/deny|block/);
    const [allowed] = recordsOf("hook:gemini-cli");
    expect(brief(allowed!)).toEqual({ verdict: "allow", participants: shadowParticipants });
  });

  it("@toolgate/ai-sdk: the tool runs in generateText, and the host's record lists the shadows", async () => {
    const records: DecisionRecord[] = [];
    const host = await createHost({ cwd: dir, logger: false, decisions: { log: false }, on: { decision: (record) => records.push(record) } });
    let ran = false;
    const model = new MockLanguageModelV3({
      doGenerate: async ({ prompt }) => {
        const answered = prompt.some((message) => message.role === "tool");
        if (answered) return { content: [{ type: "text", text: "done" }], finishReason: { unified: "stop", raw: undefined }, usage, warnings: [] };
        const call = { type: "tool-call" as const, toolCallId: "a1", toolName: "echo", input: JSON.stringify({ text: "my secret" }) };
        return { content: [call], finishReason: { unified: "tool-calls", raw: undefined }, usage, warnings: [] };
      },
    });
    const echo = tool({ inputSchema: z.object({ text: z.string() }), execute: async () => ((ran = true), "echoed") });
    await generateText({ model, tools: gateTools({ echo }, host), prompt: "go", stopWhen: stepCountIs(3) });
    await host.close();
    expect(ran).toBe(true);
    expect(records).toHaveLength(1);
    expect(records[0]!.surface).toBe("ai-sdk");
    expect(brief(records[0] as unknown as LoggedRecord)).toEqual({ verdict: "allow", participants: shadowParticipants });
  });

  it("toolgate decisions --shadow lists the call each surface let through that the shadow policy would have blocked", async () => {
    const run = await runCli(["decisions", "--cwd", dir, "--shadow"]);
    expect(run.code).toBe(0);
    const shown = run.stdout.split("\n").filter((line) => line !== "");
    expect(shown.map((line) => line.split(/\s+/)[1])).toEqual(["hook:claude-code", "serve", "mcp-proxy", "hook:gemini-cli"]);
    for (const line of shown) expect(line).toContain("[shadow] rule *:text=*secret* would have blocked");
    expect(shown[0]).toContain("[shadow] plugin no-secrets would have blocked: no secrets in echoes");
  });
});

describe("toolgate explain", () => {
  it("shows the shadow answers, marked, and the verdict without them", async () => {
    const run = await runCli(["explain", "--cwd", dir, "echo", JSON.stringify({ text: "my secret" })]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/BLOCK +no-secrets \(shadow, not enforced\): no secrets in echoes/);
    expect(run.stdout).toMatch(/verdict: ALLOW\n/);
  });
});

describe("toolgate list and check", () => {
  it("list marks each shadow participant; check says a failing shadow hook is passed over because it is in shadow", async () => {
    const listed = await runCli(["list", "--cwd", dir]);
    expect(listed.stdout).toMatch(/loaded {2}no-secrets {2}\[config, shadow\]/);
    expect(listed.stdout).toMatch(/loaded {2}permissions \(shadow\) {2}\[rule, shadow\]/);
    expect(listed.stdout).toMatch(/loaded {2}permissions {2}\[rule\]/);
    expect(listed.stdout).toContain("[command, shadow]");
    const checked = await runCli(["check", "--cwd", dir]);
    expect(checked.code).toBe(0);
    expect(checked.stdout + checked.stderr).toMatch(/is passed over \(it runs in shadow mode\)/);
  });
});
