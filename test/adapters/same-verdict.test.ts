import type { PreToolUseHookInput } from "@anthropic-ai/claude-agent-sdk";
import { gateTools } from "@toolgate/ai-sdk";
import { toolgateHooks } from "@toolgate/claude-agent-sdk";
import { blockMessage, createHost, type Host, type Plugin } from "@toolgate/host";
import { generateText, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";

/**
 * The same verdict on every surface: one set of plugins, the same calls, through the host directly and
 * through each framework adapter, and every surface must reach the same decision with the same reason.
 * A new surface (another adapter, `toolgate hook claude-code`, `toolgate mcp-proxy`) is one more entry
 * in `surfaces`: a function that runs one shell call through it and reports what it decided.
 */

/** What a surface did with a call: the arguments the tool ran with, the text the model read for a block, or a question to a human. */
type Decision = { action: "allow"; args: Record<string, unknown> } | { action: "block"; reason: string } | { action: "ask" };

interface Surface {
  name: string;
  /** Runs a call to the shell tool `Bash` with `args` through this surface, on a host loaded with `plugins`. */
  decide(host: Host, args: Record<string, unknown>): Promise<Decision>;
}

const plugins: Plugin[] = [
  {
    name: "no-root-delete",
    hooks: {
      pre_tool_call: (call) =>
        call.kind === "shell" && /rm\s+-rf\s+\//.test(String(call.args.command)) ? { action: "block", message: "refusing destructive root delete" } : undefined,
    },
  },
  {
    name: "change-control",
    hooks: { pre_tool_call: (call) => (String(call.args.command).includes("deploy") ? { action: "ask", message: "deploys need a human" } : undefined) },
  },
  {
    name: "dry-run",
    hooks: { pre_tool_call: (call) => (call.args.command === "make" ? { action: "modify", args: { command: "make --dry-run" } } : undefined) },
  },
  {
    name: "flaky-policy",
    hooks: {
      pre_tool_call(call) {
        if (String(call.args.command).startsWith("curl")) throw new Error("policy store unreachable");
      },
    },
  },
];

const cases: [string, Record<string, unknown>][] = [
  ["a root delete is blocked", { command: "rm -rf /" }],
  ["a harmless command is allowed as it came", { command: "echo hello" }],
  ["a modify changes the arguments the tool runs with", { command: "make" }],
  ["an ask asks", { command: "deploy prod" }],
  ["block beats ask, with the block's reason", { command: "deploy && rm -rf /" }],
  ["a plugin that throws fails closed, naming the plugin", { command: "curl example.com" }],
];

const hostCheck: Surface = {
  name: "host.checkToolCall",
  async decide(host, args) {
    const verdict = await host.checkToolCall({ id: "c1", name: "Bash", kind: "shell", args });
    if (verdict.action === "block") return { action: "block", reason: blockMessage(verdict) };
    if (verdict.action === "ask") return { action: "ask" };
    return { action: "allow", args: { ...verdict.args } };
  },
};

/** The AI SDK's generateText with its mock model: one call to `Bash`, then whatever the model reads back. */
const aiSdk: Surface = {
  name: "@toolgate/ai-sdk",
  async decide(host, args) {
    let ranWith: Record<string, unknown> | undefined;
    let denial: string | undefined;
    const usage = {
      inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 1, text: 1, reasoning: undefined },
    };
    const model = new MockLanguageModelV3({
      doGenerate: async ({ prompt }) => {
        const results = prompt.flatMap((message) => (message.role === "tool" ? message.content : [])).filter((part) => part.type === "tool-result");
        const output = results[0]?.output;
        if (output?.type === "execution-denied") denial = output.reason;
        if (results.length > 0) return { content: [{ type: "text", text: "done" }], finishReason: { unified: "stop", raw: undefined }, usage, warnings: [] };
        return {
          content: [{ type: "tool-call", toolCallId: "c1", toolName: "Bash", input: JSON.stringify(args) }],
          finishReason: { unified: "tool-calls", raw: undefined },
          usage,
          warnings: [],
        };
      },
    });
    const Bash = tool({ inputSchema: z.object({ command: z.string() }), execute: async (input) => ((ranWith = input), "ok") });
    const result = await generateText({ model, tools: gateTools({ Bash }, host, { kinds: { Bash: "shell" } }), prompt: "go", stopWhen: stepCountIs(3) });
    if (result.content.some((part) => part.type === "tool-approval-request")) return { action: "ask" };
    if (denial !== undefined) return { action: "block", reason: denial };
    if (ranWith !== undefined) return { action: "allow", args: ranWith };
    throw new Error("the AI SDK neither ran, denied nor asked about the call");
  },
};

/** The Claude Agent SDK's PreToolUse callback, called with the SDK's own input type, as its query() calls it. */
const claudeAgentSdk: Surface = {
  name: "@toolgate/claude-agent-sdk",
  async decide(host, args) {
    const input: PreToolUseHookInput = {
      hook_event_name: "PreToolUse",
      session_id: "s1",
      transcript_path: "",
      cwd: process.cwd(),
      tool_name: "Bash",
      tool_input: args,
      tool_use_id: "c1",
    };
    const callback = toolgateHooks(host).PreToolUse[0]!.hooks[0]!;
    const output = await callback(input, "c1", { signal: new AbortController().signal });
    const specific = "hookSpecificOutput" in output ? output.hookSpecificOutput : undefined;
    if (specific === undefined) return { action: "allow", args };
    if (specific.hookEventName !== "PreToolUse") throw new Error(`unexpected answer for ${specific.hookEventName}`);
    if (specific.permissionDecision === "deny") return { action: "block", reason: specific.permissionDecisionReason ?? "" };
    if (specific.permissionDecision === "ask") return { action: "ask" };
    return { action: "allow", args: specific.updatedInput ?? args };
  },
};

// The reference first: every other surface is compared with it.
const surfaces: Surface[] = [hostCheck, aiSdk, claudeAgentSdk];

const hosts: Host[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

async function decisionOn(surface: Surface, args: Record<string, unknown>): Promise<Decision> {
  const host = await createHost({ pluginsDir: false, configFile: false, logger: false, plugins });
  hosts.push(host);
  return surface.decide(host, args);
}

describe("one set of plugins, the same decision and reason on every surface", () => {
  it.each(cases)("%s", async (_case, args) => {
    const decisions = await Promise.all(surfaces.map(async (surface) => [surface.name, await decisionOn(surface, args)] as const));
    const [, reference] = decisions[0]!;
    for (const [name, decision] of decisions) expect(decision, name).toEqual(reference);
  });

  it("the reference decisions are the plugins' own", async () => {
    const reference = await Promise.all(cases.map(([, args]) => decisionOn(hostCheck, args)));
    expect(reference).toEqual([
      { action: "block", reason: 'Tool call blocked by plugin "no-root-delete": refusing destructive root delete' },
      { action: "allow", args: { command: "echo hello" } },
      { action: "allow", args: { command: "make --dry-run" } },
      { action: "ask" },
      { action: "block", reason: 'Tool call blocked by plugin "no-root-delete": refusing destructive root delete' },
      { action: "block", reason: expect.stringMatching(/^Tool call blocked by plugin "flaky-policy": .*policy store unreachable/) },
    ]);
  });
});
