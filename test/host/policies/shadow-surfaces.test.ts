// One shadow config through every surface, and the same config without `shadow` beside it. A shadow
// plugin, a shadow rule and a shadow command hook that fails all object to a call: on every surface the
// call goes through and the surface's decision record lists the three as shadow participants. In the
// twin project, where nothing is in shadow, the same call is blocked on every surface by the same rule.
// An enforced rule beside the shadows still blocks. Then `toolgate decisions --shadow` reads back the
// calls the shadow policy would have changed.
//
// The surfaces: `toolgate hook` in each agent's dialect, `toolgate serve` (`/v1/check`, which also says
// what the shadow would have done, and `/v1/hooks/claude-code`), `toolgate run` and `toolgate mcp-proxy`
// as real processes (and `toolgate test`, whose fixtures see the same verdicts); each framework adapter in
// its framework's real package with a scripted model (the Claude Agent SDK twice: its PreToolUse callback
// called with the SDK's own input type, and its real query() running the Claude Code binary it ships
// against a fake Messages API). A new surface is one more entry in `surfaces`.
import { createSdkMcpServer, query, tool as claudeTool, type PreToolUseHookInput } from "@anthropic-ai/claude-agent-sdk";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { MemorySaver } from "@langchain/langgraph";
import { Agent, type AgentOutputItem, run as runAgent, setTracingDisabled, tool as agentTool } from "@openai/agents";
import { gateTools } from "@toolgate/ai-sdk";
import { toolgateHooks } from "@toolgate/claude-agent-sdk";
import { createHost, type DecisionRecord, type Host } from "@toolgate/host";
import { toolgateMiddleware } from "@toolgate/langchain";
import { gateAgentTools } from "@toolgate/openai-agents";
import { generateText, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { createAgent, tool as langchainTool, ToolMessage } from "langchain";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { callTool, reply, ScriptedChatModel } from "../../../packages/langchain/src/__fixtures__/scripted-chat-model.js";
import { fakeApiEnv, startFakeMessagesApi } from "../../../packages/claude-agent-sdk/src/fixtures/fake-messages-api.js";
import { ScriptedModel, say } from "../../../packages/openai-agents/src/__fixtures__/scripted-model.js";
import { makeTempDir, parseJsonLines, removeTempDirs, runCli, writeFiles } from "../../helpers/cli-harness.js";
import { parseAnswer, runHook } from "../../helpers/hook-harness.js";
import { connectThroughProxy, echoServerPath, type Connection } from "../../helpers/proxy-harness.js";
import { post, startServe, type Served } from "../../helpers/serve-harness.js";

vi.setConfig({ testTimeout: 90_000 });

const failingCommand = `${JSON.stringify(process.execPath)} -e "process.exit(1)"`;
const noSecrets = `export default { name: "no-secrets", hooks: { pre_tool_call: (call) => String(call.args.text ?? "").includes("secret") ? { action: "block", message: "no secrets in echoes" } : undefined } };`;
const secretRule = "*:text=*secret*";
const forbiddenRule = "*:text=*forbidden*";

/** The policy under test: the plugin, the failing hook and the secret rule only watch. */
const shadowFiles = {
  "plugins/no-secrets.mjs": noSecrets,
  "toolgate.config.json": JSON.stringify({
    pluginsDir: false,
    protectPolicy: "off",
    plugins: [["./plugins/no-secrets.mjs", {}, { shadow: true }]],
    hooks: { pre_tool_call: [{ command: failingCommand, timeout: 30, shadow: true }] },
    permissions: { deny: [forbiddenRule, "fail"], shadow: { deny: [secretRule, "count"] } },
  }),
};

/** The same policy enforced: every `shadow` taken out, the shadow rules joined to the enforced ones. */
const enforcedFiles = {
  "plugins/no-secrets.mjs": noSecrets,
  "toolgate.config.json": JSON.stringify({
    pluginsDir: false,
    protectPolicy: "off",
    plugins: [["./plugins/no-secrets.mjs", {}]],
    hooks: { pre_tool_call: [{ command: failingCommand, timeout: 30 }] },
    permissions: { deny: [forbiddenRule, "fail", secretRule, "count"] },
  }),
};

/** The three participants that object to "my secret", in the order they run (rules, hooks, plugins). */
const objectors = [
  { kind: "rule", name: secretRule, action: "block" },
  { kind: "command", name: failingCommand, action: "error" },
  { kind: "plugin", name: "no-secrets", action: "block" },
];
const shadowParticipants = objectors.map((participant) => ({ ...participant, shadow: true }));

interface Brief {
  verdict: string;
  source?: { kind: string; name: string } | undefined;
  participants: { kind: string; name: string; action: string; shadow?: boolean }[];
}

const brief = (record: DecisionRecord): Brief => ({
  verdict: record.verdict,
  ...(record.source === undefined ? {} : { source: { kind: record.source.kind, name: record.source.name } }),
  participants: record.participants.map(({ kind, name, action, shadow }) => ({ kind, name, action, ...(shadow === undefined ? {} : { shadow }) })),
});

/** Whether the call went on to the tool (or was let through for the agent to run) or was blocked. */
type Outcome = "ran" | "blocked";

interface Surface {
  name: string;
  /** The `surface` its records carry. */
  surface: string;
  /** In another process: its records are read from the project's .toolgate/decisions.jsonl. */
  logged?: true;
  /** The session its calls carry, where another surface writes records under the same `surface`. */
  session?: string;
  /** One call to `echo` with `{ text }` through the surface, for the project in `dir`; in-process records go to `records`. */
  send(text: string, dir: string, records: DecisionRecord[]): Promise<Outcome>;
}

let shadowDir: string;
let enforcedDir: string;
const hosts: Host[] = [];
beforeAll(() => {
  setTracingDisabled(true);
  shadowDir = makeTempDir("repo", "shadow-surfaces-");
  writeFiles(shadowDir, shadowFiles);
  enforcedDir = makeTempDir("repo", "shadow-enforced-");
  writeFiles(enforcedDir, enforcedFiles);
});

/** Servers and proxies, one per project folder, started on first use. */
const serves = new Map<string, Promise<Served>>();
const proxies = new Map<string, Promise<Connection>>();
const once = <T>(cache: Map<string, Promise<T>>, dir: string, start: () => Promise<T>): Promise<T> => {
  if (!cache.has(dir)) cache.set(dir, start());
  return cache.get(dir)!;
};
const served = (dir: string) => once(serves, dir, () => startServe(["--cwd", dir]));
const proxied = (dir: string) => once(proxies, dir, () => connectThroughProxy(dir, ["--", process.execPath, echoServerPath]));

afterAll(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
  await Promise.all([...proxies.values()].map(async (proxy) => (await proxy).close()));
  await Promise.all([...serves.values()].map(async (serve) => (await serve).stop()));
  removeTempDirs();
});

/** A host on the project, as an app embedding an adapter opens one; its records go to `records`. */
async function projectHost(dir: string, records: DecisionRecord[]): Promise<Host> {
  const host = await createHost({ cwd: dir, logger: false, decisions: { log: false }, on: { decision: (record) => records.push(record) } });
  hosts.push(host);
  return host;
}

/**
 * `toolgate hook <agent>` as a real process. A block must be the dialect's deny with exit code 2; a pass,
 * exit code 0 and an answer with no deny and no ask in it (a shadow never asks either).
 */
function hookSurface(agent: string, input: (text: string, dir: string) => unknown, denies: (answer: Record<string, unknown>) => boolean): Surface {
  return {
    name: `toolgate hook ${agent}`,
    surface: `hook:${agent}`,
    logged: true,
    async send(text, dir) {
      const run = await runHook(agent, input(text, dir), { cwd: dir });
      const answer = parseAnswer(run);
      if (run.code === 2 && denies(answer)) return "blocked";
      if (run.code === 0 && !/"(deny|ask|block)"/.test(JSON.stringify(answer))) return "ran";
      throw new Error(`toolgate hook ${agent} neither let the call through nor denied it: exit ${run.code}, ${run.stdout} ${run.stderr}`);
    },
  };
}

const specific = (answer: Record<string, unknown>) => (answer.hookSpecificOutput ?? {}) as Record<string, unknown>;

const claudeInput = (text: string, dir: string): PreToolUseHookInput => ({
  hook_event_name: "PreToolUse",
  session_id: "s1",
  transcript_path: "",
  cwd: dir,
  tool_name: "echo",
  tool_input: { text },
  tool_use_id: "toolu_1",
});

const hookClaudeCode = hookSurface("claude-code", claudeInput, (answer) => specific(answer).permissionDecision === "deny");

const hookGemini = hookSurface(
  "gemini-cli",
  (text, dir) => ({
    session_id: "g1",
    transcript_path: "",
    cwd: dir,
    hook_event_name: "BeforeTool",
    timestamp: "2026-01-01T00:00:00Z",
    tool_name: "echo",
    tool_input: { text },
  }),
  (answer) => answer.decision === "deny",
);

const hookCodex = hookSurface(
  "codex",
  (text, dir) => ({
    session_id: "c1",
    transcript_path: null,
    cwd: dir,
    hook_event_name: "PreToolUse",
    model: "gpt-5",
    turn_id: "t1",
    tool_name: "echo",
    tool_input: { text },
    tool_use_id: "call_1",
  }),
  (answer) => specific(answer).permissionDecision === "deny",
);

const hookCopilot = hookSurface(
  "copilot-cli",
  (text, dir) => ({ timestamp: 1704614600000, cwd: dir, toolName: "echo", toolArgs: JSON.stringify({ text }) }),
  (answer) => answer.permissionDecision === "deny",
);

/** `toolgate serve`'s `/v1/check`: the verdict is what a caller obeys. */
const serveCheck: Surface = {
  name: "toolgate serve /v1/check",
  surface: "serve",
  logged: true,
  session: "v1-check",
  async send(text, dir) {
    const answer = await post(`${(await served(dir)).url}/v1/check`, { call: { id: "v1", name: "echo", args: { text } }, session: { id: "v1-check" } });
    if (answer.status !== 200) throw new Error(`/v1/check answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer.body.verdict.action === "block" ? "blocked" : "ran";
  },
};

/** `toolgate serve`'s `/v1/hooks/claude-code` (Claude Code's `type: "http"` hook): the same answer as the command hook's. */
const serveHook: Surface = {
  name: "toolgate serve /v1/hooks/claude-code",
  surface: "serve",
  logged: true,
  session: "s1",
  async send(text, dir) {
    const answer = await post(`${(await served(dir)).url}/v1/hooks/claude-code`, claudeInput(text, dir));
    if (answer.status !== 200) throw new Error(`/v1/hooks/claude-code answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    const decision = specific(answer.body as Record<string, unknown>).permissionDecision;
    if (decision === "deny") return "blocked";
    if (decision === undefined || decision === "allow") return "ran";
    throw new Error(`/v1/hooks/claude-code answered ${JSON.stringify(answer.body)}`);
  },
};

/** `toolgate run` over a calls file, as a script replays calls through the gate. */
const toolgateRun: Surface = {
  name: "toolgate run",
  surface: "run",
  logged: true,
  async send(text, dir) {
    const file = join(dir, `calls-${Math.random().toString(36).slice(2)}.jsonl`);
    writeFileSync(file, JSON.stringify({ id: "r1", name: "echo", args: { text } }));
    const run = await runCli(["run", file, "--json", "--cwd", dir]);
    if (run.code !== 0) throw new Error(`toolgate run exited with ${run.code}: ${run.stderr}`);
    return (JSON.parse(run.stdout) as { verdict: { action: string } }).verdict.action === "block" ? "blocked" : "ran";
  },
};

/** `toolgate mcp-proxy` in front of a real MCP echo server, driven by the MCP SDK's client. */
const mcpProxy: Surface = {
  name: "toolgate mcp-proxy",
  surface: "mcp-proxy",
  logged: true,
  async send(text, dir) {
    const result = (await (await proxied(dir)).client.callTool({ name: "echo", arguments: { text } })) as CallToolResult;
    if (result.isError === true) return "blocked";
    expect(result.content[0]).toMatchObject({ type: "text", text });
    return "ran";
  },
};

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } };

/** The AI SDK's generateText with its mock model: one call to `echo`, then done. */
const aiSdk: Surface = {
  name: "@toolgate/ai-sdk",
  surface: "ai-sdk",
  async send(text, dir, records) {
    let ran = false;
    let denied = false;
    const model = new MockLanguageModelV3({
      doGenerate: async ({ prompt }) => {
        const results = prompt.flatMap((message) => (message.role === "tool" ? message.content : [])).filter((part) => part.type === "tool-result");
        if (results[0]?.output.type === "execution-denied") denied = true;
        if (results.length > 0) return { content: [{ type: "text", text: "done" }], finishReason: { unified: "stop", raw: undefined }, usage, warnings: [] };
        const call = { type: "tool-call" as const, toolCallId: "a1", toolName: "echo", input: JSON.stringify({ text }) };
        return { content: [call], finishReason: { unified: "tool-calls", raw: undefined }, usage, warnings: [] };
      },
    });
    const echo = tool({ inputSchema: z.object({ text: z.string() }), execute: async () => ((ran = true), "echoed") });
    const result = await generateText({ model, tools: gateTools({ echo }, await projectHost(dir, records)), prompt: "go", stopWhen: stepCountIs(3) });
    if (result.content.some((part) => part.type === "tool-approval-request")) throw new Error("the AI SDK asked for approval");
    if (ran) return "ran";
    if (denied) return "blocked";
    throw new Error("the AI SDK neither ran nor denied the call");
  },
};

/** The OpenAI Agents SDK's run() with a scripted model calling a function tool `echo`. */
const openaiAgents: Surface = {
  name: "@toolgate/openai-agents",
  surface: "openai-agents",
  async send(text, dir, records) {
    let ran = false;
    let output: unknown;
    const echo = agentTool({ name: "echo", description: "echo", parameters: z.object({ text: z.string() }), execute: async () => ((ran = true), "echoed") });
    const model = new ScriptedModel([
      () => [{ type: "function_call", callId: "o1", name: "echo", status: "completed", arguments: JSON.stringify({ text }) } as AgentOutputItem],
      (input) => {
        output = input.find((item) => item.type === "function_call_result");
        return [say("done")];
      },
    ]);
    const result = await runAgent(new Agent({ name: "ops", model, tools: gateAgentTools([echo], await projectHost(dir, records)) }), "go");
    if ((result.interruptions ?? []).length > 0) throw new Error("the OpenAI Agents SDK asked for approval");
    if (ran) return "ran";
    const said = (output as { output?: { text?: unknown } } | undefined)?.output?.text;
    if (typeof said === "string" && said.startsWith("Tool call blocked by")) return "blocked";
    throw new Error(`the OpenAI Agents SDK neither ran nor blocked the call: ${JSON.stringify(output)}`);
  },
};

/** LangChain's createAgent with a scripted chat model and the middleware. */
const langchain: Surface = {
  name: "@toolgate/langchain",
  surface: "langchain",
  async send(text, dir, records) {
    let ran = false;
    const echo = langchainTool(async () => ((ran = true), "echoed"), { name: "echo", description: "echo", schema: z.object({ text: z.string() }) });
    const model = new ScriptedChatModel([() => callTool("l1", "echo", { text }), () => reply("done")]);
    const agent = createAgent({ model, tools: [echo], middleware: [toolgateMiddleware(await projectHost(dir, records))], checkpointer: new MemorySaver() });
    const result = await agent.invoke({ messages: [{ role: "user", content: "go" }] }, { configurable: { thread_id: "t1" } });
    if (ran) return "ran";
    const message = result.messages.find((candidate) => ToolMessage.isInstance(candidate));
    if (message?.status === "error") return "blocked";
    throw new Error("LangChain neither ran nor blocked the call");
  },
};

/** The Claude Agent SDK's PreToolUse callback from toolgateHooks, called with the SDK's own input type. */
const claudeAgentSdk: Surface = {
  name: "@toolgate/claude-agent-sdk",
  surface: "claude-agent-sdk",
  async send(text, dir, records) {
    const callback = toolgateHooks(await projectHost(dir, records)).PreToolUse[0]!.hooks[0]!;
    const output = (await callback(claudeInput(text, dir), "toolu_1", { signal: new AbortController().signal })) as Record<string, unknown>;
    const decision = specific(output).permissionDecision;
    if (decision === "deny") return "blocked";
    if (decision === undefined || decision === "allow") return "ran";
    throw new Error(`the Claude Agent SDK callback answered ${JSON.stringify(output)}`);
  },
};

/**
 * The Claude Agent SDK's query(), which runs the Claude Code binary it ships, against a fake Messages API
 * (as the package's own e2e test does): the model calls an in-process MCP tool `echo` (`mcp__tg__echo`).
 */
const claudeAgentSdkQuery: Surface = {
  name: "@toolgate/claude-agent-sdk, in query()",
  surface: "claude-agent-sdk",
  async send(text, dir, records) {
    let ran = false;
    const echo = claudeTool("echo", "echo the text", { text: z.string() }, async () => ((ran = true), { content: [{ type: "text", text: "echoed" }] }));
    let seen: { isError: boolean; text: string } | undefined;
    const api = await startFakeMessagesApi((results) => {
      seen = results[0];
      return seen === undefined ? { tool: "mcp__tg__echo", input: { text } } : { text: "done" };
    });
    const home = makeTempDir("os", "shadow-query-home-");
    const host = await projectHost(dir, records);
    try {
      const options = {
        cwd: dir,
        hooks: toolgateHooks(host),
        mcpServers: { tg: createSdkMcpServer({ name: "tg", tools: [echo] }) },
        allowedTools: ["mcp__tg__echo"],
        maxTurns: 3,
        settingSources: [],
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, ...fakeApiEnv(api.url) },
      };
      for await (const _message of query({ prompt: "echo it", options }));
    } finally {
      await api.close();
    }
    if (ran) return "ran";
    if (seen?.isError && seen.text.includes("Tool call blocked by")) return "blocked";
    throw new Error(`query() neither ran nor blocked the call: ${JSON.stringify(seen)}`);
  },
};

const surfaces: Surface[] = [
  hookClaudeCode,
  hookGemini,
  hookCodex,
  hookCopilot,
  serveCheck,
  serveHook,
  toolgateRun,
  mcpProxy,
  aiSdk,
  openaiAgents,
  langchain,
  claudeAgentSdk,
  claudeAgentSdkQuery,
];

/** The one record a surface left for the call that sent `text` (`summary` is the text). */
async function recordOf(surface: Surface, dir: string, text: string, inProcess: DecisionRecord[]): Promise<DecisionRecord> {
  const path = join(dir, ".toolgate/decisions.jsonl");
  const read = () =>
    (surface.logged ? (existsSync(path) ? (parseJsonLines(readFileSync(path, "utf8")) as DecisionRecord[]) : []) : inProcess).filter(
      (record) => record.surface === surface.surface && record.summary === text && (surface.session === undefined || record.session === surface.session),
    );
  for (let tries = 0; tries < 100 && read().length === 0; tries++) await new Promise((resolve) => setTimeout(resolve, 20));
  const found = read();
  expect(found, `${surface.name}: one record for "${text}"`).toHaveLength(1);
  return found[0]!;
}

async function decide(surface: Surface, dir: string, text: string): Promise<{ outcome: Outcome; record: Brief }> {
  const records: DecisionRecord[] = [];
  const outcome = await surface.send(text, dir, records);
  return { outcome, record: brief(await recordOf(surface, dir, text, records)) };
}

describe("a shadow plugin, rule and failing hook never decide, on every surface; the same config without shadow blocks", () => {
  it.each(surfaces.map((surface) => [surface.name, surface] as const))("%s", async (_name, surface) => {
    const [watched, enforced, forbidden] = await Promise.all([
      decide(surface, shadowDir, "my secret"),
      decide(surface, enforcedDir, "my secret"),
      decide(surface, shadowDir, "forbidden"),
    ]);
    expect(watched).toEqual({ outcome: "ran", record: { verdict: "allow", participants: shadowParticipants } });
    expect(enforced).toEqual({ outcome: "blocked", record: { verdict: "block", source: { kind: "rule", name: secretRule }, participants: objectors } });
    // An enforced rule beside the shadows still blocks, whatever they say.
    expect(forbidden.outcome).toBe("blocked");
    expect(forbidden.record).toMatchObject({ verdict: "block", source: { kind: "rule", name: forbiddenRule } });
  });
});

describe("toolgate serve /v1/check says what the shadow would have done, only when it differs", () => {
  const check = async (dir: string, text: string) =>
    (await post(`${(await served(dir)).url}/v1/check`, { call: { id: "w1", name: "echo", args: { text } } })).body;

  it("an allowed call the shadow rule would have blocked: the verdict allows, `shadow` names the rule and its message", async () => {
    const answer = await check(shadowDir, "another secret");
    expect(answer.verdict).toMatchObject({ action: "allow" });
    expect(answer.shadow).toEqual({
      verdict: "block",
      source: { kind: "rule", name: secretRule },
      message: expect.stringContaining(`deny rule "${secretRule}"`),
    });
  });

  it("the failing shadow hook alone: `shadow` names the command and why it would have blocked", async () => {
    const answer = await check(shadowDir, "hello");
    expect(answer.verdict).toMatchObject({ action: "allow" });
    expect(answer.shadow).toMatchObject({
      verdict: "block",
      source: { kind: "command", name: failingCommand },
      message: expect.stringContaining("failing closed"),
    });
  });

  it("no `shadow` where it would change nothing (already blocked) or where nothing is in shadow", async () => {
    const blocked = await check(shadowDir, "forbidden secret");
    expect(blocked.verdict).toMatchObject({ action: "block", source: { kind: "rule", name: forbiddenRule } });
    expect(blocked).not.toHaveProperty("shadow");
    const enforced = await check(enforcedDir, "hello");
    expect(enforced.verdict).toMatchObject({ action: "block", source: { kind: "command", name: failingCommand } });
    expect(enforced).not.toHaveProperty("shadow");
  });
});

describe("toolgate mcp-proxy's tool list", () => {
  it("a tool a shadow rule denies outright stays listed; one an enforced rule denies is hidden", async () => {
    const names = (await (await proxied(shadowDir)).client.listTools()).tools.map((listed) => listed.name);
    expect(names).toContain("count");
    expect(names).not.toContain("fail");
    const enforced = (await (await proxied(enforcedDir)).client.listTools()).tools.map((listed) => listed.name);
    expect(enforced).not.toContain("count");
  });
});

describe("toolgate decisions --shadow", () => {
  it("lists each call a surface let through that the shadow policy would have blocked, and nothing from the enforced twin", async () => {
    const run = await runCli(["decisions", "--cwd", shadowDir, "--shadow"]);
    expect(run.code).toBe(0);
    const shown = run.stdout.split("\n").filter((line) => line.includes(" echo "));
    const logged = surfaces.filter((surface) => surface.logged).map((surface) => surface.surface);
    expect(new Set(shown.map((line) => line.split(/\s+/)[1]))).toEqual(new Set(logged));
    for (const line of shown.filter((candidate) => candidate.includes("my secret"))) {
      expect(line).toContain(`[shadow] rule ${secretRule} would have blocked`);
      expect(line).toContain("[shadow] plugin no-secrets would have blocked: no secrets in echoes");
    }
    const twin = await runCli(["decisions", "--cwd", enforcedDir, "--shadow"]);
    expect(twin.code).toBe(0);
    expect(twin.stdout).not.toContain("[shadow]");
  });
});

describe("toolgate test", () => {
  const fixtures = (cases: Record<string, unknown>[]) => JSON.stringify({ cases });
  const secret = { tool: "echo", args: { text: "my secret" } };

  it("a fixture sees the verdict every surface gives: allowed under shadow, blocked by the rule once enforced", async () => {
    const shadowCases = join(shadowDir, "shadow-cases.json");
    writeFileSync(shadowCases, fixtures([{ name: "watched", ...secret, expect: "allow" }]));
    const watched = await runCli(["test", shadowCases, "--cwd", shadowDir]);
    expect(watched.code, watched.stdout).toBe(0);
    const enforcedCases = join(enforcedDir, "enforced-cases.json");
    writeFileSync(enforcedCases, fixtures([{ name: "enforced", ...secret, expect: "block", by: `rule:${secretRule}` }]));
    const enforced = await runCli(["test", enforcedCases, "--cwd", enforcedDir]);
    expect(enforced.code, enforced.stdout).toBe(0);
    // And the shadow's block is no verdict a fixture can expect.
    writeFileSync(shadowCases, fixtures([{ name: "watched", ...secret, expect: "block" }]));
    const wrong = await runCli(["test", shadowCases, "--cwd", shadowDir]);
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toContain("expected block, got allow");
  });
});

describe("toolgate explain", () => {
  it("shows the shadow answers, marked, and the verdict without them", async () => {
    const run = await runCli(["explain", "--cwd", shadowDir, "echo", JSON.stringify({ text: "my secret" })]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/BLOCK +no-secrets \(shadow, not enforced\): no secrets in echoes/);
    expect(run.stdout).toMatch(/verdict: ALLOW\n/);
  });
});

describe("toolgate list and check", () => {
  it("list marks each shadow participant; check says a failing shadow hook is passed over because it is in shadow", async () => {
    const listed = await runCli(["list", "--cwd", shadowDir]);
    expect(listed.stdout).toMatch(/loaded {2}no-secrets {2}\[config, shadow\]/);
    expect(listed.stdout).toMatch(/loaded {2}permissions \(shadow\) {2}\[rule, shadow\]/);
    expect(listed.stdout).toMatch(/loaded {2}permissions {2}\[rule\]/);
    expect(listed.stdout).toContain("[command, shadow]");
    const checked = await runCli(["check", "--cwd", shadowDir]);
    expect(checked.code).toBe(0);
    expect(checked.stdout + checked.stderr).toMatch(/is passed over \(it runs in shadow mode\)/);
  });
});
