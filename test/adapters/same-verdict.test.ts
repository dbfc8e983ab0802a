import type { PreToolUseHookInput } from "@anthropic-ai/claude-agent-sdk";
import { MemorySaver } from "@langchain/langgraph";
import { Agent, type AgentOutputItem, run as runAgent, setTracingDisabled, shellTool, tool as agentTool } from "@openai/agents";
import { toolgateHooks } from "@toolgate/claude-agent-sdk";
import { askMessage, blockMessage, createHost, type DecisionRecord, type Host, type Verdict } from "@toolgate/host";
import { toolgateMiddleware } from "@toolgate/langchain";
import { gateAgentTools } from "@toolgate/openai-agents";
import { createAgent, type HITLRequest, type Interrupt, tool as langchainTool, ToolMessage } from "langchain";
import { AsyncLocalStorage } from "node:async_hooks";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { callTool, reply, ScriptedChatModel } from "../../packages/langchain/src/__fixtures__/scripted-chat-model.js";
import { ScriptedModel, say } from "../../packages/openai-agents/src/__fixtures__/scripted-model.js";
import { bashThroughAiSdk } from "../helpers/ai-sdk-surface.js";
import { parseAnswer, runHook } from "../helpers/hook-harness.js";
import { runCli } from "../helpers/cli-harness.js";
import { post, startServe, type Served } from "../helpers/serve-harness.js";
import { createTempProject, type TempProject } from "../helpers/temp-project.js";
import { connectThroughProxy, type Connection } from "../helpers/proxy-harness.js";

/**
 * The same verdict on every surface: one project (plugins in its plugins folder, permission rules in its
 * toolgate.config.mjs), the same calls to a tool named `Bash`, through the host directly, each framework
 * adapter with its framework's real package, `toolgate hook claude-code` and `toolgate mcp-proxy` as real
 * processes. Every surface must reach the same decision with the same reason. A new surface is one more
 * entry in `surfaces`.
 *
 * The plugins look at `args.command` only, never at `kind`: the kind is the one thing surfaces may
 * rightly disagree on (an MCP tool is `mcp`, Claude's `Bash` is `shell`, a framework's tool `function`).
 *
 * Each surface also leaves one decision record per call, and those records say the same thing: who
 * decided, the verdict, every participant's answer, the arguments' digest and the policy's. Only what
 * belongs to the surface differs: its name, times, the call's id, kind and session, and the outcome
 * (known where the surface runs the tool).
 */

/** What a surface did with a call: the arguments the tool ran with, the text the model read for a block, or a question to a human. */
type Decision =
  | { action: "allow"; args: Record<string, unknown> }
  | { action: "block"; reason: string }
  /** `reason`: the question a human reads, where the surface's approval request carries text. */
  | { action: "ask"; reason?: string };

interface Surface {
  name: string;
  /** For a surface in another process: the `surface` its records carry in the project's .toolgate/decisions.jsonl. */
  logSurface?: string;
  /** Its calls carry arguments of their own beside `command` (a shell action's `commands`): their digest differs. */
  ownArgs?: true;
  /** It has no approver: an ask ends as the host's block of an unanswered ask, and is recorded so. */
  blocksAsks?: true;
  /** False where the framework's approval request has no text to carry the reason (ai-sdk, openai-agents). */
  askCarriesReason: boolean;
  /** `dir`: the project folder whose plugins and config decide. */
  decide(args: Record<string, unknown>, dir: string): Promise<Decision>;
}

const files: Record<string, string> = {
  "plugins/no-root-delete.mjs": `export default { name: "no-root-delete", hooks: { pre_tool_call: (call) => /rm\\s+-rf\\s+\\//.test(String(call.args.command)) ? { action: "block", message: "refusing destructive root delete" } : undefined } };`,
  "plugins/change-control.mjs": `export default { name: "change-control", hooks: { pre_tool_call: (call) => String(call.args.command).includes("deploy") ? { action: "ask", message: "deploys need a human" } : undefined } };`,
  "plugins/dry-run.mjs": `export default { name: "dry-run", hooks: { pre_tool_call: (call) => call.args.command === "make" ? { action: "modify", args: { command: "make --dry-run" } } : undefined } };`,
  "plugins/harmless.mjs": `export default { name: "harmless", hooks: { pre_tool_call: (call) => call.args.command === "pwd" ? { action: "allow", reason: "pwd is harmless" } : undefined } };`,
  "plugins/flaky-policy.mjs": `export default { name: "flaky-policy", hooks: { pre_tool_call(call) { if (String(call.args.command).startsWith("curl")) throw new Error("policy store unreachable"); } } };`,
  "toolgate.config.mjs": `export default { permissions: { deny: ["Bash:command=*shutdown*"], ask: ["Bash:command=git push*"] } };`,
};

const cases: [string, Record<string, unknown>][] = [
  ["a root delete is blocked", { command: "rm -rf /" }],
  ["a harmless command is allowed as it came", { command: "echo hello" }],
  ["a modify changes the arguments the tool runs with", { command: "make" }],
  ["an explicit allow is an allow", { command: "pwd" }],
  ["an ask asks", { command: "deploy prod" }],
  ["block beats ask, with the block's reason", { command: "deploy && rm -rf /" }],
  ["a plugin that throws fails closed, naming the plugin", { command: "curl example.com" }],
  ["a deny rule blocks, naming the rule", { command: "sudo shutdown now" }],
  ["an ask rule asks, naming the rule", { command: "git push origin main" }],
];

/**
 * The same project with one more guard, configured with a typo in its options: its factory throws, so it
 * fails to load. Under the default `onPluginError: "block"` every call is blocked with that cause, the
 * harmless ones too, whatever the plugins that did load would say.
 */
const failingFiles: Record<string, string> = {
  ...files,
  "guard.mjs": `export default (options) => { if (options.mode !== "strict") throw new Error("unknown mode " + JSON.stringify(options.mode)); return { name: "guard" }; };`,
  "toolgate.config.mjs": `export default { plugins: [["./guard.mjs", { mode: "strcit" }]], permissions: { deny: ["Bash:command=*shutdown*"], ask: ["Bash:command=git push*"] } };`,
};

let project: TempProject;
let failingProject: TempProject;
const hosts: Host[] = [];
beforeAll(() => {
  setTracingDisabled(true);
  project = createTempProject(files);
  failingProject = createTempProject(failingFiles);
});
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});
afterAll(() => {
  project?.remove();
  failingProject?.remove();
});

/** The records of the in-process surface being run (see `decideAndRecord`). */
const surfaceRecords = new AsyncLocalStorage<DecisionRecord[]>();

/** A host on the project, as `toolgate` itself opens one: its plugins folder and its config. */
async function projectHost(dir: string): Promise<Host> {
  const host = await createHost({ cwd: dir, logger: false });
  hosts.push(host);
  const records = surfaceRecords.getStore();
  if (records) host.events.on("decision", (record) => records.push(record));
  return host;
}

const hostCheck: Surface = {
  name: "host.checkToolCall",
  askCarriesReason: true,
  async decide(args, dir) {
    const verdict = await (await projectHost(dir)).checkToolCall({ name: "Bash", args });
    if (verdict.action === "block") return { action: "block", reason: blockMessage(verdict) };
    if (verdict.action === "ask") return { action: "ask", reason: askMessage(verdict) };
    return { action: "allow", args: { ...verdict.args } };
  },
};

/** The AI SDK's generateText with its mock model: one call to `Bash`, then whatever the model reads back. */
const aiSdk: Surface = {
  name: "@toolgate/ai-sdk",
  askCarriesReason: false,
  decide: async (args, dir) => bashThroughAiSdk(await projectHost(dir), args),
};

/** The OpenAI Agents SDK's run() with a scripted model calling a function tool `Bash`. */
const openaiAgents: Surface = {
  name: "@toolgate/openai-agents",
  askCarriesReason: false,
  async decide(args, dir) {
    let ranWith: Record<string, unknown> | undefined;
    let output: unknown;
    const Bash = agentTool({
      name: "Bash",
      description: "run a command",
      parameters: z.object({ command: z.string() }),
      execute: async (input) => ((ranWith = input), "ok"),
    });
    const model = new ScriptedModel([
      () => [{ type: "function_call", callId: "c1", name: "Bash", status: "completed", arguments: JSON.stringify(args) } as AgentOutputItem],
      (input) => {
        output = input.find((item) => item.type === "function_call_result");
        return [say("done")];
      },
    ]);
    const result = await runAgent(new Agent({ name: "ops", model, tools: gateAgentTools([Bash], await projectHost(dir)) }), "go");
    if ((result.interruptions ?? []).length > 0) return { action: "ask" };
    if (ranWith !== undefined) return { action: "allow", args: ranWith };
    // The SDK hands the model a function tool's string output as `{ type: "text", text }`.
    const text = (output as { output?: { text?: unknown } } | undefined)?.output?.text;
    if (typeof text === "string") return { action: "block", reason: text };
    throw new Error(`the OpenAI Agents SDK neither ran, blocked nor asked about the call: ${JSON.stringify(output)}`);
  },
};

/**
 * The OpenAI Agents SDK's local shell tool, named `Bash`: gated through the SDK's approval seam rather
 * than a function tool's invoke, so it is a surface of its own.
 */
const openaiAgentsShell: Surface = {
  name: "@toolgate/openai-agents (shellTool)",
  ownArgs: true,
  askCarriesReason: false,
  async decide(args, dir) {
    let ran: string[] | undefined;
    let output: unknown;
    const Bash = shellTool({ name: "Bash", shell: { run: async (action) => ((ran = action.commands), { output: [] }) } });
    const model = new ScriptedModel([
      () => [{ type: "shell_call", callId: "sh_1", status: "completed", action: { commands: [String(args.command)] } } as AgentOutputItem],
      (input) => {
        output = input.find((item) => item.type === "shell_call_output");
        return [say("done")];
      },
    ]);
    const result = await runAgent(new Agent({ name: "ops", model, tools: gateAgentTools([Bash], await projectHost(dir)) }), "go");
    if ((result.interruptions ?? []).length > 0) return { action: "ask" };
    // A shell action holds a list of command lines, where the other surfaces hold one `command`.
    if (ran !== undefined) return { action: "allow", args: { command: ran.join("\n") } };
    // The SDK hands the model a shell call's output as stdout/stderr per command; the block is the stderr.
    const stderr = (output as { output?: { stderr?: unknown }[] } | undefined)?.output?.[0]?.stderr;
    if (typeof stderr === "string") return { action: "block", reason: stderr };
    throw new Error(`the OpenAI Agents SDK's shell neither ran, blocked nor asked about the call: ${JSON.stringify(output)}`);
  },
};

/** LangChain's createAgent with a scripted chat model, the middleware set to raise its human-in-the-loop interrupt on ask. */
const langchain: Surface = {
  name: "@toolgate/langchain",
  askCarriesReason: true,
  async decide(args, dir) {
    let ranWith: Record<string, unknown> | undefined;
    const Bash = langchainTool(async (input) => ((ranWith = input), "ok"), {
      name: "Bash",
      description: "run a command",
      schema: z.object({ command: z.string() }),
    });
    const model = new ScriptedChatModel([() => callTool("c1", "Bash", args), () => reply("done")]);
    const agent = createAgent({
      model,
      tools: [Bash],
      middleware: [toolgateMiddleware(await projectHost(dir), { ask: "interrupt" })],
      checkpointer: new MemorySaver(),
    });
    const result = await agent.invoke({ messages: [{ role: "user", content: "go" }] }, { configurable: { thread_id: "t1" } });
    const interrupt = (result as { __interrupt__?: Interrupt<HITLRequest>[] }).__interrupt__?.[0];
    if (interrupt !== undefined) return { action: "ask", reason: interrupt.value?.actionRequests[0]?.description ?? "" };
    if (ranWith !== undefined) return { action: "allow", args: ranWith };
    const message = result.messages.find((candidate) => ToolMessage.isInstance(candidate));
    if (message?.status === "error") return { action: "block", reason: String(message.content) };
    throw new Error("LangChain neither ran, blocked nor interrupted the call");
  },
};

/** A Claude `PreToolUse` answer (the SDK's callback and the CLI hook answer alike) as a decision. */
function decisionOfPreToolUse(answer: Record<string, unknown>, args: Record<string, unknown>): Decision {
  const specific = answer.hookSpecificOutput as
    | { permissionDecision?: string; permissionDecisionReason?: string; updatedInput?: Record<string, unknown> }
    | undefined;
  // No answer: no plugin had an opinion, and the tool runs as it came (Claude's own permissions aside).
  if (specific === undefined) return { action: "allow", args };
  if (specific.permissionDecision === "deny") return { action: "block", reason: specific.permissionDecisionReason ?? "" };
  if (specific.permissionDecision === "ask") return { action: "ask", reason: specific.permissionDecisionReason ?? "" };
  return { action: "allow", args: specific.updatedInput ?? args };
}

const preToolUse = (args: Record<string, unknown>, dir: string): PreToolUseHookInput => ({
  hook_event_name: "PreToolUse",
  session_id: "s1",
  transcript_path: "",
  cwd: dir,
  tool_name: "Bash",
  tool_input: args,
  tool_use_id: "toolu_1",
});

/** The Claude Agent SDK's PreToolUse callback, called with the SDK's own input type, as its query() calls it. */
const claudeAgentSdk: Surface = {
  name: "@toolgate/claude-agent-sdk",
  askCarriesReason: true,
  async decide(args, dir) {
    const callback = toolgateHooks(await projectHost(dir)).PreToolUse[0]!.hooks[0]!;
    const output = await callback(preToolUse(args, dir), "toolu_1", { signal: new AbortController().signal });
    return decisionOfPreToolUse(output as Record<string, unknown>, args);
  },
};

/** `toolgate hook claude-code`, a real child process of the CLI (from source through tsx), the hook input on its stdin. */
const hookClaudeCode: Surface = {
  name: "toolgate hook claude-code",
  logSurface: "hook:claude-code",
  askCarriesReason: true,
  async decide(args, dir) {
    const run = await runHook("claude-code", preToolUse(args, dir), { cwd: dir });
    if (run.code !== 0 && run.code !== 2) throw new Error(`toolgate hook claude-code exited with ${run.code}: ${run.stderr}`);
    const output = parseAnswer(run);
    // Exit code 2 is how the hook denies: Claude Code reads the reason from stderr and ignores stdout, which carries the same deny.
    if (run.code === 2) {
      const specific = output.hookSpecificOutput as { permissionDecision?: unknown; permissionDecisionReason?: unknown } | undefined;
      if (specific?.permissionDecision !== "deny" || !run.stderr.includes(`${String(specific.permissionDecisionReason)}\n`))
        throw new Error(`toolgate hook claude-code exited with 2 without the deny's reason on stderr: ${run.stderr}`);
    }
    return decisionOfPreToolUse(output, args);
  },
};

const bashServer = fileURLToPath(new URL("./fixtures/bash-server.mjs", import.meta.url));
/** One proxy process per project folder, started on first use. */
const proxies = new Map<string, Promise<Connection>>();
afterAll(async () => {
  await Promise.all([...proxies.values()].map(async (proxy) => (await proxy).close()));
});

// MCP has no approval step, and the proxy no approver: an ask comes back as the host's block of an ask
// without onAsk. The format forces that, so that one wording is read back as the ask it was.
const unansweredAsk = /^Tool call blocked by (.*?): (.*) \(needs approval, and this host has no onAsk approver\)$/s;

/** `toolgate mcp-proxy` (a real process, from source) in front of a small real MCP server, driven by the MCP SDK's client. */
const mcpProxy: Surface = {
  name: "toolgate mcp-proxy",
  logSurface: "mcp-proxy",
  blocksAsks: true,
  askCarriesReason: true,
  async decide(args, dir) {
    if (!proxies.has(dir)) proxies.set(dir, connectThroughProxy(dir, ["--", process.execPath, bashServer]));
    const { client } = await proxies.get(dir)!;
    const result = await client.callTool({ name: "Bash", arguments: args });
    const text = (result.content as { type: string; text?: string }[]).map((part) => part.text ?? "").join("");
    if (result.isError !== true) return { action: "allow", args: (JSON.parse(text) as { ran: Record<string, unknown> }).ran };
    const asked = unansweredAsk.exec(text);
    if (asked) return { action: "ask", reason: `Approval needed (${asked[1]}): ${asked[2]}` };
    return { action: "block", reason: text };
  },
};

// The reference first: every other surface is compared with it.
const surfaces: Surface[] = [hostCheck, aiSdk, openaiAgents, openaiAgentsShell, langchain, claudeAgentSdk, hookClaudeCode, mcpProxy];

/** What `surface` must have decided, given the reference: the same, less an ask's reason where its format has no room for one. */
function expectedOn(surface: Surface, reference: Decision): Decision {
  return reference.action === "ask" && !surface.askCarriesReason ? { action: "ask" } : reference;
}

/** A surface's decision, and the records it left in this process (a surface in another process leaves them in the log). */
async function decideAndRecord(surface: Surface, args: Record<string, unknown>, dir: string): Promise<[Surface, Decision, DecisionRecord[]]> {
  const records: DecisionRecord[] = [];
  const decision = await surfaceRecords.run(records, () => surface.decide(args, dir));
  return [surface, decision, records];
}

/** The records another process wrote for `surface` into the project's log, waiting for `argsDigest`'s to arrive. */
async function loggedRecords(dir: string, surface: string, argsDigest: string): Promise<DecisionRecord[]> {
  const path = join(dir, ".toolgate", "decisions.jsonl");
  const read = () =>
    (existsSync(path) ? readFileSync(path, "utf8").split("\n").slice(0, -1) : [])
      .map((line) => JSON.parse(line) as DecisionRecord)
      .filter((record) => record.surface === surface && record.argsDigest === argsDigest);
  for (let tries = 0; tries < 100 && read().length === 0; tries++) await new Promise((resolve) => setTimeout(resolve, 20));
  return read();
}

/** What every surface's record of one call must share. */
function recordContent({ tool, verdict, source, participants, argsDigest, policy }: DecisionRecord) {
  return { tool, verdict, source, participants: participants.map(({ ms, ...answer }) => answer), argsDigest, policy };
}

describe("one set of plugins and rules, the same decision and reason on every surface", () => {
  it.each(cases)(
    "%s",
    async (_case, args) => {
      const decisions = await Promise.all(surfaces.map((surface) => decideAndRecord(surface, args, project.dir)));
      const [, reference, [referenceRecord]] = decisions[0]!;
      for (const [surface, decision] of decisions) expect(decision, surface.name).toEqual(expectedOn(surface, reference));
      // The same record content on every surface: one record each, whatever the surface.
      const expected = recordContent(referenceRecord!);
      for (const [surface, , inProcess] of decisions) {
        const records = surface.logSurface === undefined ? inProcess : await loggedRecords(project.dir, surface.logSurface, expected.argsDigest);
        if (surface.ownArgs) expect(records[0]?.argsDigest).not.toBe(expected.argsDigest);
        expect(records, `${surface.name}: one record`).toHaveLength(1);
        const content = recordContent(records[0]!);
        expect(content, `${surface.name}: its record`).toEqual({
          ...expected,
          ...(surface.ownArgs ? { argsDigest: content.argsDigest } : {}),
          ...(surface.blocksAsks && expected.verdict === "ask" ? { verdict: "block" } : {}),
        });
      }
    },
    60_000,
  );

  it("the reference decisions are the plugins' and rules' own", async () => {
    const reference = await Promise.all(cases.map(([, args]) => hostCheck.decide(args, project.dir)));
    expect(reference).toEqual([
      { action: "block", reason: 'Tool call blocked by plugin "no-root-delete": refusing destructive root delete' },
      { action: "allow", args: { command: "echo hello" } },
      { action: "allow", args: { command: "make --dry-run" } },
      { action: "allow", args: { command: "pwd" } },
      { action: "ask", reason: 'Approval needed (plugin "change-control"): deploys need a human' },
      { action: "block", reason: 'Tool call blocked by plugin "no-root-delete": refusing destructive root delete' },
      { action: "block", reason: expect.stringMatching(/^Tool call blocked by plugin "flaky-policy": .*policy store unreachable/) },
      {
        action: "block",
        reason: `Tool call blocked by permission rule "Bash:command=*shutdown*": this call is denied by the project's permissions (deny rule "Bash:command=*shutdown*")`,
      },
      { action: "ask", reason: 'Approval needed (permission rule "Bash:command=git push*"): this call needs approval (ask rule "Bash:command=git push*")' },
    ]);
  });
});

describe("a plugin that fails to load: every surface blocks every call, with the same reason", () => {
  it.each(cases)(
    "%s",
    async (_case, args) => {
      const decisions = await Promise.all(surfaces.map(async (surface) => [surface, await surface.decide(args, failingProject.dir)] as const));
      for (const [surface, decision] of decisions)
        expect(decision, surface.name).toEqual({
          action: "block",
          reason: expect.stringMatching(
            /^Tool call blocked by plugin "\.\/guard\.mjs": plugin "\.\/guard\.mjs" failed to load: \/.*\/guard\.mjs: the plugin factory failed: unknown mode "strcit" \(every call is blocked until it loads; onPluginError: "block"\)$/,
          ),
        });
      const reasons = new Set(decisions.map(([, decision]) => (decision as { reason: string }).reason));
      expect(reasons.size).toBe(1);
    },
    60_000,
  );
});

/**
 * A policy that reads the kind: the surfaces that speak for a coding agent, and the CLI's `explain`, `run`
 * and `serve`'s `/v1/check`, give Claude Code's `Bash` the same kind from the one table of agent tool names
 * (with `--agent claude-code` / `agent`, and without: the default reading), so they decide alike.
 */
describe("a policy that reads the kind: every agent surface and the CLI's tools give Bash the same kind", () => {
  const kindFiles = {
    "plugins/no-env.mjs": `export default { name: "no-env", hooks: { pre_tool_call: (call) => call.kind === "shell" && String(call.args.command).includes(".env") ? { action: "block", message: "shell reads of .env are off limits (" + call.kind + ")" } : undefined } };`,
  };
  let kindProject: TempProject;
  let served: Served;
  beforeAll(async () => {
    kindProject = createTempProject(kindFiles);
    served = await startServe(["--cwd", kindProject.dir]);
  }, 30_000);
  afterAll(async () => {
    await served?.stop();
    kindProject?.remove();
  });

  const blockOrAllow = (verdict: { action: string; message?: string; plugin?: string }, args: Record<string, unknown>): Decision =>
    verdict.action === "block" ? { action: "block", reason: `Tool call blocked by plugin "${verdict.plugin}": ${verdict.message}` } : { action: "allow", args };

  const cliSurfaces: Surface[] = [
    ...[[], ["--agent", "claude-code"]].map(
      (agent): Surface => ({
        name: `toolgate explain ${agent.join(" ")}`,
        askCarriesReason: true,
        async decide(args, dir) {
          const run = await runCli(["explain", "Bash", JSON.stringify(args), "--json", "--cwd", dir, ...agent]);
          return blockOrAllow((JSON.parse(run.stdout) as { verdict: Verdict }).verdict, args);
        },
      }),
    ),
    ...[[], ["--agent", "claude-code"]].map(
      (agent): Surface => ({
        name: `toolgate run ${agent.join(" ")}`,
        askCarriesReason: true,
        async decide(args, dir) {
          const file = join(dir, `calls-${agent.length}-${Math.random().toString(36).slice(2)}.jsonl`);
          writeFileSync(file, JSON.stringify({ id: "c1", name: "Bash", args }));
          const run = await runCli(["run", file, "--json", "--cwd", dir, ...agent]);
          return blockOrAllow((JSON.parse(run.stdout) as { verdict: Verdict }).verdict, args);
        },
      }),
    ),
    ...[{}, { agent: "claude-code" }].map(
      (agent): Surface => ({
        name: `toolgate serve /v1/check ${JSON.stringify(agent)}`,
        askCarriesReason: true,
        async decide(args) {
          const answer = await post(`${served.url}/v1/check`, { call: { id: "c1", name: "Bash", args }, ...agent });
          return blockOrAllow(answer.body.verdict as Verdict, args);
        },
      }),
    ),
  ];

  it.each([
    ["a shell read of .env is blocked", { command: "cat .env" }, "block"],
    ["another command is allowed", { command: "echo hello" }, "allow"],
  ])(
    "%s",
    async (_case, args, expected) => {
      const agentSurfaces = [claudeAgentSdk, hookClaudeCode, ...cliSurfaces];
      const decisions = await Promise.all(agentSurfaces.map(async (surface) => [surface.name, await surface.decide(args, kindProject.dir)] as const));
      const reference = decisions[0]![1];
      expect(reference.action).toBe(expected);
      for (const [name, decision] of decisions) expect(decision, name).toEqual(reference);
    },
    60_000,
  );
});
