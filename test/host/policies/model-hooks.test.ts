import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createHost, type HostOptions } from "@toolgate/host";
import { maxJudgedCallChars } from "@toolgate/model-hooks";
import { parseAnswer, runHook } from "../../helpers/hook-harness.js";
import { createTempProject } from "../../helpers/temp-project.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

interface Request {
  authorization: string | undefined;
  body: any;
}

const requests: Request[] = [];
/** What the fake model says next, by model id. */
const answers: Record<string, string> = {
  prose: 'Let me think about this.\nThe command deletes the repository.\n{"decision": "deny", "reason": "it deletes the repository"}\nI hope that helps!',
  fenced: 'Sure:\n```json\n{ "decision": "allow", "reason": "read-only" }\n```',
  ask: '{"decision":"ask","reason":"a human should check the push"}',
  rambling: "I cannot decide without more context.",
};
let server: Server;
let baseURL: string;

/** A fake OpenAI-compatible chat completions endpoint on loopback; the model id picks the answer. */
beforeAll(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      const parsed = JSON.parse(body);
      requests.push({ authorization: request.headers.authorization, body: parsed });
      if (parsed.model === "slow") return;
      if (parsed.model === "broken") {
        response.writeHead(500, { "content-type": "application/json" });
        response.end(JSON.stringify({ error: { message: "the model is overloaded" } }));
        return;
      }
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          id: "chatcmpl-1",
          object: "chat.completion",
          created: 1,
          model: parsed.model,
          choices: [{ index: 0, message: { role: "assistant", content: answers[parsed.model] ?? "" }, finish_reason: "stop" }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const tools = { bash: { kind: "shell", execute: () => "ran" } };
const call = (command: string) => ({ id: "c1", name: "bash", args: { command }, kind: "shell" });
const judge = (model: string, more: Record<string, unknown> = {}) => ({ type: "model" as const, model: `local:${model}`, baseURL, ...more });
const hostWith = (hooks: NonNullable<HostOptions["hooks"]>, more: HostOptions = {}) =>
  createHost({ pluginsDir: false, configFile: false, logger: false, tools, hooks, ...more });

describe("model hooks (a fake OpenAI-compatible server, real HTTP through the AI SDK client)", () => {
  it("an LLM judge that answers in prose around its JSON blocks the call with its reason", async () => {
    process.env.JUDGE_KEY = "sk-local";
    const host = await hostWith({
      pre_tool_call: [judge("prose", { apiKeyEnv: "JUDGE_KEY", prompt: "Judge {{tool_name}} ({{tool_kind}}) with {{tool_input}}." })],
    });
    const result = await host.callTool(call("rm -rf .git"));
    expect(result.status).toBe("blocked");
    expect(result.content).toBe('Tool call blocked by model hook "local:prose": it deletes the repository');
    const sent = requests.at(-1)!;
    expect(sent.authorization).toBe("Bearer sk-local");
    const prompt: string = sent.body.messages.at(-1).content;
    expect(prompt).toContain('Judge bash (shell) with {"command":"rm -rf .git"}.');
    expect(prompt).toContain('{"decision": "allow" | "ask" | "deny", "reason": "<one sentence>"}');
    await host.close();
  });

  it("a fenced answer allows, an ask goes to onAsk, and the source names the model", async () => {
    const host = await hostWith({ pre_tool_call: [judge("fenced")] });
    expect(await host.checkToolCall(call("cat README.md"))).toMatchObject({
      action: "allow",
      message: "read-only",
      source: { kind: "model", name: "local:fenced" },
    });
    await host.close();
    const asked: string[] = [];
    const asking = await hostWith({ pre_tool_call: [judge("ask")] }, { onAsk: (_call, message) => (asked.push(message), false) });
    expect((await asking.callTool(call("git push"))).status).toBe("blocked");
    expect(asked).toEqual(["a human should check the push"]);
    await asking.close();
  });

  it.each([
    ["a command after 10,000 spaces", { command: `${" ".repeat(10_000)}rm -rf ~` }],
    ["a command after 50,000 characters of a harmless comment", { command: `# ${"ok ".repeat(16_000)}\nrm -rf ~` }],
    ["a command in a late argument", { description: "list files".repeat(3000), command: "rm -rf ~" }],
    ["a command after many escaped characters", { command: `${"\\u0000".repeat(5000)}; rm -rf ~` }],
  ])("the judge sees the whole call, however it is padded: %s", async (_name, args) => {
    const host = await hostWith({ pre_tool_call: [judge("fenced")] });
    await host.checkToolCall({ id: "c1", name: "bash", args, kind: "shell" });
    const prompt: string = requests.at(-1)!.body.messages.at(-1).content;
    expect(prompt).toContain(JSON.stringify(args));
    expect(prompt).not.toMatch(/characters cut/);
    await host.close();
  });

  it.each([
    ["just over the limit", (size: number) => ({ command: `${" ".repeat(size)}rm -rf ~` })],
    ["a megabyte of padding", () => ({ command: `${" ".repeat(1024 * 1024)}rm -rf ~` })],
    ["a large file body", () => ({ path: "notes.md", content: "line\n".repeat(40_000) })],
    ["a long extra argument", () => ({ command: "ls", padding: "x".repeat(120_000) })],
  ])("a call larger than the judge is shown is denied unjudged, naming the limit, even with onHookError allow: %s", async (_name, args) => {
    const base = JSON.stringify({ tool_name: "bash", tool_kind: "shell", tool_input: {}, session_id: "s", cwd: "/" }).length;
    for (const onHookError of ["block", "allow"] as const) {
      const host = await hostWith({ pre_tool_call: [judge("fenced")] }, { onHookError });
      const before = requests.length;
      const verdict = await host.checkToolCall({ id: "c1", name: "bash", args: args(maxJudgedCallChars - base), kind: "shell" });
      expect(verdict).toMatchObject({ action: "block", source: { kind: "model", name: "local:fenced" } });
      expect(verdict.message).toMatch(
        /^the call is \d+ characters of JSON, more than the 100000 a model hook's judge is shown; it is refused rather than judged on a part of it$/,
      );
      expect(requests.length).toBe(before);
      await host.close();
    }
  });

  it("a call at the limit is judged whole", async () => {
    const host = await hostWith({ pre_tool_call: [judge("fenced")] });
    const input = (command: string) => ({ tool_name: "bash", tool_kind: "shell", tool_input: { command }, session_id: host.session.id, cwd: process.cwd() });
    const command = " ".repeat(maxJudgedCallChars - JSON.stringify(input("")).length);
    expect(JSON.stringify(input(command)).length).toBe(maxJudgedCallChars);
    expect((await host.checkToolCall(call(command))).action).toBe("allow");
    expect(requests.at(-1)!.body.messages.at(-1).content).toContain(JSON.stringify({ command }));
    await host.close();
  });

  it("an unparseable answer, a client error and a timeout are hook failures that fail closed", async () => {
    const host = await hostWith({ pre_tool_call: [judge("rambling"), judge("broken"), judge("slow", { timeout: 0.5 })] });
    const explanation = await host.explainToolCall(call("ls"));
    expect(explanation.verdict.action).toBe("block");
    const messages = explanation.plugins.map((part) => `${part.outcome}: ${part.message}`);
    expect(messages[0]).toMatch(/^error: .*holds no JSON decision: I cannot decide/);
    expect(messages[1]).toMatch(/^error: .*the model call failed: .*overloaded/);
    expect(messages[2]).toMatch(/^error: .*timed out after 500 ms/);
    await host.close();
  });

  it("a missing apiKeyEnv variable is a hook failure, not a call without a key", async () => {
    delete process.env.NOT_SET_KEY;
    const host = await hostWith({ pre_tool_call: [judge("prose", { apiKeyEnv: "NOT_SET_KEY" })] });
    const before = requests.length;
    expect((await host.checkToolCall(call("ls"))).message).toContain("NOT_SET_KEY (apiKeyEnv) is not set");
    expect(requests.length).toBe(before);
    await host.close();
  });

  it("through toolgate hook claude-code: a padded call is judged whole, an oversized one denied unjudged", { timeout: 60_000 }, async () => {
    // The policy's own protection would refuse `rm -rf ~` (it deletes the config) before the judge is heard.
    const project = createTempProject({ "toolgate.config.json": JSON.stringify({ protectPolicy: "off", hooks: { pre_tool_call: [judge("fenced")] } }) });
    const input = (command: string) => ({
      session_id: "s",
      cwd: project.dir,
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command },
      tool_use_id: "t",
    });
    try {
      const padded = `${" ".repeat(20_000)}rm -rf ~`;
      const judged = await runHook("claude-code", input(padded));
      expect(judged.code, judged.stderr).toBe(0);
      expect(requests.at(-1)!.body.messages.at(-1).content).toContain(JSON.stringify({ command: padded }));
      const before = requests.length;
      const oversized = await runHook("claude-code", input(`${" ".repeat(maxJudgedCallChars)}rm -rf ~`));
      expect(oversized.code).toBe(2);
      expect(parseAnswer(oversized)).toMatchObject({
        hookSpecificOutput: {
          permissionDecision: "deny",
          permissionDecisionReason: expect.stringContaining("it is refused rather than judged on a part of it"),
        },
      });
      expect(requests.length).toBe(before);
    } finally {
      project.remove();
    }
  });
});
