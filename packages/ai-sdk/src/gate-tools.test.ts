import { createHost, type DecisionRecord, type Host, type HostOptions, type Plugin } from "@toolgate/host";
import { generateText, stepCountIs, streamText, tool, type ModelMessage } from "ai";
import { generateText as generateText5, stepCountIs as stepCountIs5, streamText as streamText5, tool as tool5 } from "ai5";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { changesCourse, scriptedModelV2, scriptedModelV3, type Script } from "./fixtures/scripted-models.js";
import { gateTools, isBlockedToolOutput } from "./index.js";

const hosts: Host[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

const noRootDelete: Plugin = {
  name: "no-root-delete",
  hooks: {
    pre_tool_call(call) {
      if (call.name === "terminal" && /rm\s+-rf\s+\//.test(String(call.args.command))) return { action: "block", message: "refusing destructive root delete" };
    },
  },
};
const reason = 'Tool call blocked by plugin "no-root-delete": refusing destructive root delete';

async function hostWith(plugins: Plugin[], options: HostOptions = {}): Promise<Host> {
  const host = await createHost({ pluginsDir: false, configFile: false, logger: false, plugins, ...options });
  hosts.push(host);
  return host;
}

function terminalTools(ran: string[]) {
  return {
    terminal: tool({
      description: "Run a shell command",
      inputSchema: z.object({ command: z.string() }),
      execute: async ({ command }) => (ran.push(command), `ran ${command}`),
    }),
  };
}

describe("ai@6 (LanguageModelV3): the model reads the block and changes course", () => {
  it.each(["generateText", "streamText"] as const)("%s, multi-step", async (api) => {
    const ran: string[] = [];
    const host = await hostWith([noRootDelete]);
    const records: DecisionRecord[] = [];
    host.events.on("decision", (record) => records.push(record));
    const tools = gateTools(terminalTools(ran), host);
    const { model, turns } = scriptedModelV3(changesCourse);
    const settings = { model, tools, prompt: "clean up", stopWhen: stepCountIs(5) };
    const text = api === "generateText" ? (await generateText(settings)).text : await streamText(settings).text;

    expect(ran).toEqual(["ls"]);
    // The second prompt holds the SDK's denial for the first call, with the plugin's reason verbatim.
    expect(turns[1]).toEqual([{ toolCallId: "call_1", type: "execution-denied", text: reason }]);
    expect(turns[2]?.[1]).toEqual({ toolCallId: "call_2", type: "text", text: "ran ls" });
    expect(text).toBe("done: ran ls");
    // One record per call, naming the adapter's surface.
    expect(records.map(({ surface, callId, verdict, outcome }) => ({ surface, callId, verdict, outcome }))).toEqual([
      { surface: "ai-sdk", callId: "call_1", verdict: "block", outcome: "blocked" },
      { surface: "ai-sdk", callId: "call_2", verdict: "allow", outcome: undefined },
    ]);
  });

  it("an allowed call's output is untouched, including the tool's own toModelOutput", async () => {
    const host = await hostWith([noRootDelete]);
    const tools = gateTools(
      {
        terminal: tool({
          inputSchema: z.object({ command: z.string() }),
          execute: async ({ command }) => ({ stdout: `ran ${command}`, code: 0 }),
          toModelOutput: ({ output }) => {
            const { code, stdout } = output as { code: number; stdout: string };
            return { type: "text", value: `exit ${code}: ${stdout}` };
          },
        }),
      },
      host,
    );
    const { model, turns } = scriptedModelV3(changesCourse);
    const result = await generateText({ model, tools, prompt: "go", stopWhen: stepCountIs(5) });
    expect(result.steps[1]?.toolResults[0]?.output).toEqual({ stdout: "ran ls", code: 0 });
    expect(turns[2]?.[1]).toMatchObject({ type: "text", text: "exit 0: ran ls" });
    expect(turns[1]?.[0]).toMatchObject({ type: "execution-denied", text: reason });
    expect(isBlockedToolOutput(result.steps[0]?.toolResults[0]?.output)).toBe(true);
  });

  it("a modify reaches execute: the tool runs with the final arguments", async () => {
    const dryRun: Plugin = {
      name: "dry-run",
      hooks: { pre_tool_call: (call) => ({ action: "modify", args: { command: `${String(call.args.command)} --dry-run` } }) },
    };
    const ran: string[] = [];
    const tools = gateTools(terminalTools(ran), await hostWith([dryRun]));
    const script: Script = (read) => (read.length === 0 ? { tool: "terminal", input: { command: "make" } } : { text: read[0]!.text });
    const scripted = scriptedModelV3(script);
    const result = await generateText({ model: scripted.model, tools, prompt: "build", stopWhen: stepCountIs(3) });
    expect(ran).toEqual(["make --dry-run"]);
    expect(result.text).toBe("ran make --dry-run");
  });

  it("post_tool_call sees each call the tool ran, never a blocked one", async () => {
    const seen: string[] = [];
    const observer: Plugin = {
      name: "observer",
      hooks: { post_tool_call: (call, result) => void seen.push(`${call.id} ${String(call.args.command)} ${result.status} ${result.content}`) },
    };
    const tools = gateTools(terminalTools([]), await hostWith([noRootDelete, observer]));
    await generateText({ model: scriptedModelV3(changesCourse).model, tools, prompt: "go", stopWhen: stepCountIs(5) });
    expect(seen).toEqual(["call_2 ls ok ran ls"]);
  });

  it("pre_tool_call fires exactly once per call (needsApproval and execute share the verdict)", async () => {
    const counted: string[] = [];
    const counter: Plugin = { name: "counter", hooks: { pre_tool_call: (call) => void counted.push(call.id) } };
    const tools = gateTools(terminalTools([]), await hostWith([noRootDelete, counter]));
    await generateText({ model: scriptedModelV3(changesCourse).model, tools, prompt: "go", stopWhen: stepCountIs(5) });
    expect(counted).toEqual(["call_1", "call_2"]);
  });
});

describe("the verdict needsApproval decided", () => {
  it("is used only by execute for the same call: a reused id with other arguments is checked anew", async () => {
    const ran: string[] = [];
    const counted: string[] = [];
    const counter: Plugin = { name: "counter", hooks: { pre_tool_call: (call) => void counted.push(String(call.args.command)) } };
    const tools = gateTools(terminalTools(ran), await hostWith([noRootDelete, counter]));
    const needsApproval = tools.terminal.needsApproval as (input: unknown, options: unknown) => Promise<boolean>;
    const options = { toolCallId: "reused", messages: [] };
    expect(await needsApproval({ command: "rm -rf /" }, options)).toBe(false);
    expect(await tools.terminal.execute!({ command: "ls" }, options)).toBe("ran ls");
    expect(await needsApproval({ command: "pwd" }, options)).toBe(false);
    expect(await tools.terminal.execute!({ command: "pwd" }, options)).toBe("ran pwd");
    expect(ran).toEqual(["ls", "pwd"]);
    expect(counted).toEqual(["rm -rf /", "ls", "pwd"]);
  });
});

describe("ask", () => {
  const asker: Plugin = {
    name: "change-control",
    hooks: { pre_tool_call: (call) => (call.name === "deploy" ? { action: "ask", message: "deploys need a human" } : undefined) },
  };
  const deployScript: Script = (read) => (read.length === 0 ? { tool: "deploy", input: { env: "prod" } } : { text: `${read[0]!.type}: ${read[0]!.text}` });
  const deployTools = (deployed: string[]) => ({
    deploy: tool({ inputSchema: z.object({ env: z.string() }), execute: async ({ env }) => (deployed.push(env), `deployed ${env}`) }),
  });

  it("the host's onAsk decides when the host has one", async () => {
    const deployed: string[] = [];
    const tools = gateTools(deployTools(deployed), await hostWith([asker], { onAsk: () => false }));
    const result = await generateText({ model: scriptedModelV3(deployScript).model, tools, prompt: "ship", stopWhen: stepCountIs(3) });
    expect(deployed).toEqual([]);
    expect(result.text).toBe('execution-denied: Tool call blocked by plugin "change-control": deploys need a human (not approved)');
  });

  it.each([true, false])("without onAsk the SDK's approval flow asks (approved: %s)", async (approved) => {
    const deployed: string[] = [];
    const tools = gateTools(deployTools(deployed), await hostWith([asker]));
    const { model } = scriptedModelV3(deployScript);
    const first = await generateText({ model, tools, prompt: "ship", stopWhen: stepCountIs(3) });
    const request = first.content.find((part) => part.type === "tool-approval-request");
    expect(request).toMatchObject({ toolCall: { toolName: "deploy", input: { env: "prod" } } });
    expect(deployed).toEqual([]);

    const messages: ModelMessage[] = [
      { role: "user", content: "ship" },
      ...first.response.messages,
      { role: "tool", content: [{ type: "tool-approval-response", approvalId: request!.approvalId, approved, reason: approved ? "go" : "not today" }] },
    ];
    const second = await generateText({ model, tools, messages, stopWhen: stepCountIs(3) });
    expect(deployed).toEqual(approved ? ["prod"] : []);
    expect(second.text).toBe(approved ? "text: deployed prod" : "execution-denied: not today");
  });

  it("without onAsk and without the SDK's approval, execute refuses the call", async () => {
    const deployed: string[] = [];
    const tools = gateTools(deployTools(deployed), await hostWith([asker]));
    const output = await tools.deploy.execute!({ env: "prod" }, { toolCallId: "direct", messages: [] });
    expect(deployed).toEqual([]);
    expect(output).toMatchObject({ type: "toolgate-blocked", blockedBy: "change-control" });
  });
});

describe("ai@5 (LanguageModelV2): the model reads the block and changes course", () => {
  it.each(["generateText", "streamText"] as const)("%s, multi-step", async (api) => {
    const ran: string[] = [];
    const tools = gateTools(
      {
        terminal: tool5({
          description: "Run a shell command",
          inputSchema: z.object({ command: z.string() }),
          execute: async ({ command }) => (ran.push(command), `ran ${command}`),
        }),
      },
      await hostWith([noRootDelete]),
    );
    const { model, turns } = scriptedModelV2(changesCourse);
    const settings = { model, tools, prompt: "clean up", stopWhen: stepCountIs5(5) };
    const text = api === "generateText" ? (await generateText5(settings)).text : await streamText5(settings).text;
    expect(ran).toEqual(["ls"]);
    // ai@5 has no execution-denied output: the denial is an error-text result with the same reason.
    expect(turns[1]).toEqual([{ toolCallId: "call_1", type: "error-text", text: reason }]);
    expect(text).toBe("done: ran ls");
  });
});

describe("a streaming tool (async generator) stays one", () => {
  it("its preliminary outputs pass through; a blocked call yields the denial and never starts", async () => {
    const started: string[] = [];
    const tools = gateTools(
      {
        terminal: tool({
          inputSchema: z.object({ command: z.string() }),
          async *execute({ command }) {
            started.push(command);
            yield { status: "running" };
            yield { status: "done", output: `ran ${command}` };
          },
        }),
      },
      await hostWith([noRootDelete]),
    );
    const { model, turns } = scriptedModelV3(changesCourse);
    const stream = streamText({ model, tools, prompt: "go", stopWhen: stepCountIs(5) });
    const preliminary: unknown[] = [];
    for await (const part of stream.fullStream)
      if (part.type === "tool-result" && part.preliminary && part.toolCallId === "call_2") preliminary.push(part.output);
    expect(started).toEqual(["ls"]);
    expect(preliminary).toEqual([{ status: "running" }, { status: "done", output: "ran ls" }]);
    expect(turns[1]?.[0]).toMatchObject({ type: "execution-denied", text: reason });
  });
});
