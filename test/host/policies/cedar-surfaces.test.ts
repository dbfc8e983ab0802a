// One Cedar policy file, the same verdict on every surface: the host itself, the AI SDK adapter (its
// real generateText with a mock model), `toolgate hook claude-code`, `toolgate serve` and `toolgate
// mcp-proxy` (real processes). Cedar's forbid blocks with its @message, a permit allows, no match lets
// the call through, and a policy that errors on the call blocks: everywhere alike.
import { gateTools } from "@toolgate/ai-sdk";
import { blockMessage, createHost, type Host } from "@toolgate/host";
import { generateText, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { parseAnswer, runHook } from "../../helpers/hook-harness.js";
import { makeTempDir, removeTempDirs, writeFiles } from "../../helpers/cli-harness.js";
import { connectThroughProxy, type Connection } from "../../helpers/proxy-harness.js";
import { post, startServe, type Served } from "../../helpers/serve-harness.js";

vi.setConfig({ testTimeout: 120_000 });

const policies = `@id("no-root-delete")
@message("Cedar: no root deletes")
forbid(principal, action == Action::"Bash", resource)
  when { context.args has command && context.args.command like "rm -rf /*" };

@id("git-read-only")
permit(principal, action == Action::"Bash", resource)
  when { context.args has command && ["git status", "git diff"].contains(context.args.command) };

@id("sudo-needs-user")
forbid(principal, action == Action::"Bash", resource)
  when { context.args has command && context.args.command like "sudo *" && context.args.user == "root" };
`;

type Outcome = { action: "block"; reason: string } | { action: "allow"; args: Record<string, unknown> };

const cases: [string, Record<string, unknown>, RegExp | "allow"][] = [
  ["a forbid blocks with its @message", { command: "rm -rf /home" }, /Cedar: no root deletes/],
  ["a permit allows", { command: "git status" }, "allow"],
  ["no policy matched: the call goes through", { command: "echo hi" }, "allow"],
  [
    "a policy that errors on the call blocks, naming it and its line",
    { command: "sudo ls" },
    /policy sudo-needs-user at policies\.cedar:12:\d+: record does not have the attribute `user`/,
  ],
];

let dir: string;
let served: Served;
let proxy: Connection;
const hosts: Host[] = [];
beforeAll(async () => {
  dir = makeTempDir("repo", "cedar-surfaces-");
  writeFiles(dir, {
    "toolgate.config.json": JSON.stringify({ hooks: { pre_tool_call: [{ type: "cedar", policies: "policies.cedar" }] } }),
    "policies.cedar": policies,
  });
  [served, proxy] = await Promise.all([startServe(["--cwd", dir]), connectThroughProxy(dir, ["--", process.execPath, bashServer])]);
});
afterAll(async () => {
  await Promise.all([served?.stop(), proxy?.close(), ...hosts.map((host) => host.close())]);
  removeTempDirs();
});

const bashServer = fileURLToPath(new URL("../../adapters/fixtures/bash-server.mjs", import.meta.url));

async function projectHost(): Promise<Host> {
  const host = await createHost({ cwd: dir, logger: false });
  hosts.push(host);
  return host;
}

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } };

const surfaces: Record<string, (args: Record<string, unknown>) => Promise<Outcome>> = {
  async host(args) {
    const verdict = await (await projectHost()).checkToolCall({ name: "Bash", args });
    return verdict.action === "block" ? { action: "block", reason: blockMessage(verdict) } : { action: "allow", args: { ...verdict.args } };
  },
  async "ai-sdk"(args) {
    let ranWith: Record<string, unknown> | undefined;
    let denial: string | undefined;
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
    await generateText({ model, tools: gateTools({ Bash }, await projectHost()), prompt: "go", stopWhen: stepCountIs(3) });
    if (denial !== undefined) return { action: "block", reason: denial };
    if (ranWith !== undefined) return { action: "allow", args: ranWith };
    throw new Error("the AI SDK neither ran nor denied the call");
  },
  async "hook claude-code"(args) {
    const input = {
      hook_event_name: "PreToolUse",
      session_id: "s1",
      transcript_path: "",
      cwd: dir,
      tool_name: "Bash",
      tool_input: args,
      tool_use_id: "toolu_1",
    };
    const run = await runHook("claude-code", input, { cwd: dir });
    const specific = parseAnswer(run).hookSpecificOutput as { permissionDecision?: string; permissionDecisionReason?: string } | undefined;
    if (specific?.permissionDecision === "deny") {
      expect(run.code).toBe(2);
      return { action: "block", reason: specific.permissionDecisionReason ?? "" };
    }
    expect(run.code, run.stderr).toBe(0);
    return { action: "allow", args };
  },
  async serve(args) {
    const { body } = await post(`${served.url}/v1/check`, { call: { id: "c1", name: "Bash", args, kind: "shell" } });
    const verdict = body.verdict as { action: string; message?: string; args: Record<string, unknown> };
    return verdict.action === "block" ? { action: "block", reason: verdict.message ?? "" } : { action: "allow", args: verdict.args };
  },
  async "mcp-proxy"(args) {
    const result = await proxy.client.callTool({ name: "Bash", arguments: args });
    const text = (result.content as { text?: string }[]).map((part) => part.text ?? "").join("");
    if (result.isError === true) return { action: "block", reason: text };
    return { action: "allow", args: (JSON.parse(text) as { ran: Record<string, unknown> }).ran };
  },
};

describe("the same Cedar policy file gives the same verdict on every surface", () => {
  for (const [title, args, expected] of cases) {
    it(title, async () => {
      for (const [surface, decide] of Object.entries(surfaces)) {
        const outcome = await decide(args);
        if (expected === "allow") expect(outcome, surface).toEqual({ action: "allow", args });
        else {
          expect(outcome.action, surface).toBe("block");
          expect(outcome.action === "block" ? outcome.reason : "", surface).toMatch(expected);
        }
      }
    });
  }
});
