import { gateTools } from "@toolgate/ai-sdk";
import { askMessage, blockMessage, createHost, type Host, type Verdict } from "@toolgate/host";
import { generateText, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { parseAnswer, runHook } from "../../helpers/hook-harness.js";
import { createTempProject, type TempProject } from "../../helpers/temp-project.js";
import { connectThroughProxy, type Connection } from "../../helpers/proxy-harness.js";
import { post, startServe, type Served } from "../../helpers/serve-harness.js";

/**
 * One CEL policy file, the same calls to a tool named `Bash` through the host, the AI SDK adapter,
 * `toolgate hook claude-code`, `toolgate serve` and `toolgate mcp-proxy` (real processes): every surface
 * reaches the same verdict with the same reason. The rules read `tool` and `args` only: `kind` and
 * `agent` are what surfaces rightly tell apart (an MCP tool is `mcp`, Claude's `Bash` is `shell`).
 */
const rules = `# toolgate CEL rules for the shell
- expression: args.command.contains("rm -rf /")
  action: block
  message: refusing destructive root delete
- expression: args.command.startsWith("git push")
  action: ask
  message: pushes need a human
- expression: args.command.startsWith("make") && args.target == "prod"
  action: block
- expression: tool == "Bash" && args.command == "pwd"
  action: allow
  message: pwd is harmless
- expression: args.command.matches("^(sudo|doas)\\\\s")
  action: block
`;

const files = {
  "policy/shell.cel.yaml": rules,
  "toolgate.config.json": JSON.stringify({
    pluginsDir: false,
    protectPolicy: "off",
    hooks: { pre_tool_call: [{ type: "cel", matcher: "Bash", file: "policy/shell.cel.yaml" }] },
  }),
};

const cases: [string, string][] = [
  ["a root delete is blocked with the rule's message", "rm -rf /"],
  ["a push asks", "git push origin main"],
  ["a rule that fails on the call (no args.target) blocks, naming it", "make"],
  ["an allow rule allows", "pwd"],
  ["no rule holds: no opinion, the call runs", "echo hello"],
  ["a regex rule blocks with the default message", "sudo reboot"],
];

type Decision = { action: "allow" } | { action: "block"; reason: string } | { action: "ask"; reason?: string };

let project: TempProject;
let served: Served;
let proxy: Connection;
const hosts: Host[] = [];
beforeAll(async () => {
  project = createTempProject(files);
  served = await startServe(["--cwd", project.dir]);
  proxy = await connectThroughProxy(project.dir, ["--", process.execPath, fileURLToPath(new URL("../../adapters/fixtures/bash-server.mjs", import.meta.url))]);
}, 60_000);
afterAll(async () => {
  await Promise.all(hosts.map((host) => host.close()));
  await proxy?.close();
  await served?.stop();
  project?.remove();
});

async function projectHost(): Promise<Host> {
  const host = await createHost({ cwd: project.dir, logger: false });
  hosts.push(host);
  return host;
}

function decisionOf(verdict: Verdict): Decision {
  if (verdict.action === "block") return { action: "block", reason: blockMessage(verdict) };
  if (verdict.action === "ask") return { action: "ask", reason: askMessage(verdict) };
  return { action: "allow" };
}

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } };

const surfaces: Record<string, (command: string) => Promise<Decision>> = {
  async "host.checkToolCall"(command) {
    return decisionOf(await (await projectHost()).checkToolCall({ name: "Bash", args: { command } }));
  },
  async "@toolgate/ai-sdk"(command) {
    let ran = false;
    let denial: string | undefined;
    const model = new MockLanguageModelV3({
      doGenerate: async ({ prompt }) => {
        const results = prompt.flatMap((message) => (message.role === "tool" ? message.content : [])).filter((part) => part.type === "tool-result");
        const output = results[0]?.output;
        if (output?.type === "execution-denied") denial = output.reason;
        if (results.length > 0) return { content: [{ type: "text", text: "done" }], finishReason: { unified: "stop", raw: undefined }, usage, warnings: [] };
        const call = { type: "tool-call" as const, toolCallId: "c1", toolName: "Bash", input: JSON.stringify({ command }) };
        return { content: [call], finishReason: { unified: "tool-calls", raw: undefined }, usage, warnings: [] };
      },
    });
    const Bash = tool({ inputSchema: z.object({ command: z.string() }), execute: async () => ((ran = true), "ok") });
    const result = await generateText({ model, tools: gateTools({ Bash }, await projectHost()), prompt: "go", stopWhen: stepCountIs(3) });
    if (result.content.some((part) => part.type === "tool-approval-request")) return { action: "ask" };
    if (denial !== undefined) return { action: "block", reason: denial };
    if (ran) return { action: "allow" };
    throw new Error("the AI SDK neither ran, denied nor asked about the call");
  },
  async "toolgate hook claude-code"(command) {
    const input = {
      hook_event_name: "PreToolUse",
      session_id: "s1",
      transcript_path: "",
      cwd: project.dir,
      tool_name: "Bash",
      tool_input: { command },
      tool_use_id: "t1",
    };
    const run = await runHook("claude-code", input, { cwd: project.dir });
    if (run.code !== 0 && run.code !== 2) throw new Error(`toolgate hook claude-code exited with ${run.code}: ${run.stderr}`);
    const specific = parseAnswer(run).hookSpecificOutput as { permissionDecision?: string; permissionDecisionReason?: string } | undefined;
    if (specific?.permissionDecision === "deny") return { action: "block", reason: specific.permissionDecisionReason ?? "" };
    if (specific?.permissionDecision === "ask") return { action: "ask", reason: specific.permissionDecisionReason ?? "" };
    return { action: "allow" };
  },
  async "toolgate serve"(command) {
    const answer = await post(`${served.url}/v1/check`, { call: { id: "c1", name: "Bash", args: { command } } });
    return decisionOf(answer.body.verdict as Verdict);
  },
  async "toolgate mcp-proxy"(command) {
    const result = await proxy.client.callTool({ name: "Bash", arguments: { command } });
    const text = (result.content as { text?: string }[]).map((part) => part.text ?? "").join("");
    if (result.isError !== true) return { action: "allow" };
    // MCP has no approval step: an ask comes back as the host's block of an ask without onAsk.
    const asked = /^Tool call blocked by (.*?): (.*) \(needs approval, and this host has no onAsk approver\)$/s.exec(text);
    if (asked) return { action: "ask", reason: `Approval needed (${asked[1]}): ${asked[2]}` };
    return { action: "block", reason: text };
  },
};

/** What a surface must say, given the host's: the same, less an ask's reason where the format has no room for it. */
function expectedOn(surface: string, reference: Decision): Decision {
  return reference.action === "ask" && surface === "@toolgate/ai-sdk" ? { action: "ask" } : reference;
}

describe("one CEL policy file, the same verdict and reason on every surface", () => {
  it.each(cases)(
    "%s",
    async (_case, command) => {
      const decisions = await Promise.all(Object.entries(surfaces).map(async ([name, decide]) => [name, await decide(command)] as const));
      const [, reference] = decisions[0]!;
      for (const [name, decision] of decisions) expect(decision, name).toEqual(expectedOn(name, reference));
    },
    60_000,
  );

  it("the reference decisions are the rules' own", async () => {
    const reference = await Promise.all(cases.map(([, command]) => surfaces["host.checkToolCall"]!(command)));
    const by = 'Tool call blocked by cel hook "policy/shell.cel.yaml"';
    expect(reference).toEqual([
      { action: "block", reason: `${by}: refusing destructive root delete` },
      { action: "ask", reason: 'Approval needed (cel hook "policy/shell.cel.yaml"): pushes need a human' },
      {
        action: "block",
        reason: expect.stringMatching(
          /^Tool call blocked by cel hook "policy\/shell\.cel\.yaml": blocked: CEL rule policy\/shell\.cel\.yaml:8: rules\[2\] \(args\.command\.startsWith\("make"\) && args\.target == "prod"\) failed on this call: .*target/,
        ),
      },
      { action: "allow" },
      { action: "allow" },
      { action: "block", reason: `${by}: blocked by CEL rule policy/shell.cel.yaml:13: rules[4]: args.command.matches("^(sudo|doas)\\\\s")` },
    ]);
  });
});
