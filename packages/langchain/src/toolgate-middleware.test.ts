import { fileURLToPath } from "node:url";
import { MemorySaver } from "@langchain/langgraph";
import { type BaseMessage, ToolMessage } from "@langchain/core/messages";
import { Command } from "@langchain/langgraph";
import { blockMessage, createHost, type DecisionRecord, type Host, type HostOptions, type Plugin } from "@toolgate/host";
import { createAgent, type HITLRequest, type Interrupt, tool } from "langchain";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { callTool, reply, ScriptedChatModel } from "./__fixtures__/scripted-chat-model.js";
import { toolgateMiddleware } from "./index.js";

const blockDangerousShell = fileURLToPath(new URL("../../../plugins/block-dangerous-shell", import.meta.url));

const hosts: Host[] = [];
async function hostWith(...plugins: (string | Plugin)[]): Promise<Host> {
  return hostWithOptions({}, ...plugins);
}
async function hostWithOptions(options: HostOptions, ...plugins: (string | Plugin)[]): Promise<Host> {
  const host = await createHost({ pluginsDir: false, configFile: false, logger: false, plugins, ...options });
  hosts.push(host);
  return host;
}
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

function terminal(ran: string[]) {
  return tool(
    async ({ command }) => {
      ran.push(command);
      return `ran ${command}`;
    },
    { name: "terminal", description: "run a shell command", schema: z.object({ command: z.string() }) },
  );
}

function toolMessageFor(messages: BaseMessage[], id: string): ToolMessage | undefined {
  return messages.find((message): message is ToolMessage => ToolMessage.isInstance(message) && message.tool_call_id === id);
}

describe("toolgateMiddleware", () => {
  it("blocks rm -rf / with an error ToolMessage the model reads, and the model changes course", async () => {
    let count = 0;
    const host = await hostWith(blockDangerousShell, { name: "counter", hooks: { pre_tool_call: () => void count++ } });
    const records: DecisionRecord[] = [];
    host.events.on("decision", (record) => records.push(record));
    const ran: string[] = [];
    let read: ToolMessage | undefined;
    const model = new ScriptedChatModel([
      () => callTool("c1", "terminal", { command: "rm -rf /" }),
      (messages) => {
        read = toolMessageFor(messages, "c1");
        return callTool("c2", "terminal", { command: "du -sh /tmp" });
      },
      (messages) => reply(`checked: ${String(toolMessageFor(messages, "c2")?.content)}`),
    ]);
    const agent = createAgent({ model, tools: [terminal(ran)], middleware: [toolgateMiddleware(host)] });

    const result = await agent.invoke({ messages: [{ role: "user", content: "free some disk space" }] });

    expect(ran).toEqual(["du -sh /tmp"]);
    expect(read?.status).toBe("error");
    expect(String(read?.content)).toContain('Tool call blocked by plugin "block-dangerous-shell"');
    expect(result.messages.at(-1)?.content).toBe("checked: ran du -sh /tmp");
    expect(count).toBe(2);
    // One record per call, naming the adapter's surface and every participant.
    expect(
      records.map(({ surface, callId, verdict, participants }) => ({ surface, callId, verdict, by: participants.map((p) => `${p.name}:${p.action}`) })),
    ).toEqual([
      // The policy's own protection is asked last, on the final arguments: `rm -rf /` would delete the config too.
      { surface: "langchain", callId: "c1", verdict: "block", by: ["block-dangerous-shell:block", "counter:none", "protectPolicy:block"] },
      { surface: "langchain", callId: "c2", verdict: "allow", by: ["block-dangerous-shell:none", "counter:none"] },
    ]);
  });

  it("runs the tool with a plugin's modified arguments", async () => {
    const host = await hostWith({
      name: "dry-run",
      hooks: { pre_tool_call: (call) => ({ action: "modify", args: { command: `echo ${String(call.args.command)}` } }) },
    });
    const ran: string[] = [];
    const model = new ScriptedChatModel([() => callTool("c1", "terminal", { command: "make deploy" }), () => reply("done")]);
    await createAgent({ model, tools: [terminal(ran)], middleware: [toolgateMiddleware(host)] }).invoke({ messages: [{ role: "user", content: "deploy" }] });
    expect(ran).toEqual(["echo make deploy"]);
  });

  it("gates a call the model gave no id", async () => {
    const host = await hostWith({ name: "no-shell", hooks: { pre_tool_call: () => ({ action: "block", message: "no shell today" }) } });
    const ran: string[] = [];
    const model = new ScriptedChatModel([() => callTool(undefined, "terminal", { command: "ls" }), () => reply("ok")]);
    const result = await createAgent({ model, tools: [terminal(ran)], middleware: [toolgateMiddleware(host)] }).invoke({
      messages: [{ role: "user", content: "ls" }],
    });
    expect(ran).toEqual([]);
    expect(result.messages.some((message) => ToolMessage.isInstance(message) && String(message.content).includes("no shell today"))).toBe(true);
  });

  it("ask without an approver configured is blocked, naming the plugin", async () => {
    const host = await hostWith({ name: "confirm", hooks: { pre_tool_call: () => ({ action: "ask", message: "confirm the push" }) } });
    const ran: string[] = [];
    let read: ToolMessage | undefined;
    const model = new ScriptedChatModel([
      () => callTool("c1", "terminal", { command: "git push" }),
      (messages) => {
        read = toolMessageFor(messages, "c1");
        return reply("not pushed");
      },
    ]);
    await createAgent({ model, tools: [terminal(ran)], middleware: [toolgateMiddleware(host)] }).invoke({ messages: [{ role: "user", content: "push" }] });
    expect(ran).toEqual([]);
    expect(read?.status).toBe("error");
    expect(read?.content).toBe('Tool call blocked by plugin "confirm": confirm the push (needs approval, and this host has no onAsk approver)');
  });

  it("ask goes to the host's onAsk when it has one: a yes runs the tool, a no is blocked with the plugin's question", async () => {
    const asked: string[] = [];
    const host = await hostWithOptions(
      { onAsk: async (call, message) => (asked.push(message), call.args.command === "git push") },
      { name: "confirm", hooks: { pre_tool_call: () => ({ action: "ask", message: "confirm the push" }) } },
    );
    const ran: string[] = [];
    let read: ToolMessage | undefined;
    const model = new ScriptedChatModel([
      () => callTool("c1", "terminal", { command: "git push" }),
      () => callTool("c2", "terminal", { command: "git push --force" }),
      (messages) => {
        read = toolMessageFor(messages, "c2");
        return reply("pushed once");
      },
    ]);
    await createAgent({ model, tools: [terminal(ran)], middleware: [toolgateMiddleware(host)] }).invoke({ messages: [{ role: "user", content: "push" }] });
    expect(asked).toEqual(["confirm the push", "confirm the push"]);
    expect(ran).toEqual(["git push"]);
    expect(read?.status).toBe("error");
    expect(read?.content).toBe('Tool call blocked by plugin "confirm": confirm the push (not approved)');
  });

  it("the block text is the host's blockMessage, word for word", async () => {
    const host = await hostWith({ name: "no-shell", hooks: { pre_tool_call: () => ({ action: "block", message: "no shell today" }) } });
    const model = new ScriptedChatModel([() => callTool("c1", "terminal", { command: "ls" }), () => reply("ok")]);
    const result = await createAgent({ model, tools: [terminal([])], middleware: [toolgateMiddleware(host)] }).invoke({
      messages: [{ role: "user", content: "ls" }],
    });
    const verdict = await host.checkToolCall({ name: "terminal", args: { command: "ls" } });
    expect(toolMessageFor(result.messages, "c1")?.content).toBe(blockMessage(verdict));
  });

  it("names a wrong ask option", async () => {
    const host = await hostWith();
    expect(() => toolgateMiddleware(host, { ask: "human" as never })).toThrow('toolgateMiddleware: options.ask must be "interrupt" or "block", got "human"');
  });

  describe('ask: "interrupt"', () => {
    async function pausedAgent() {
      const checks = { count: 0 };
      const host = await hostWith({
        name: "confirm",
        hooks: {
          pre_tool_call: () => {
            checks.count++;
            return { action: "ask", message: "confirm the push" };
          },
        },
      });
      const ran: string[] = [];
      let read: ToolMessage | undefined;
      const model = new ScriptedChatModel([
        () => callTool("c1", "terminal", { command: "git push" }),
        (messages) => {
          read = toolMessageFor(messages, "c1");
          return reply("finished");
        },
      ]);
      const agent = createAgent({
        model,
        tools: [terminal(ran)],
        middleware: [toolgateMiddleware(host, { ask: "interrupt" })],
        checkpointer: new MemorySaver(),
      });
      const config = { configurable: { thread_id: `t-${Math.random()}` } };
      const first = await agent.invoke({ messages: [{ role: "user", content: "push" }] }, config);
      return { agent, config, first, ran, checks, read: () => read };
    }

    it("pauses with a humanInTheLoopMiddleware-shaped interrupt; approve runs the tool", async () => {
      const { agent, config, first, ran, checks } = await pausedAgent();
      const interrupt = (first as { __interrupt__?: Interrupt<HITLRequest>[] }).__interrupt__?.[0];
      expect(ran).toEqual([]);
      expect(interrupt?.value?.actionRequests[0]).toMatchObject({ name: "terminal", args: { command: "git push" } });
      expect(interrupt?.value?.actionRequests[0]?.description).toBe('Approval needed (plugin "confirm"): confirm the push');
      const resumed = await agent.invoke(new Command({ resume: { decisions: [{ type: "approve" }] } }), config);
      expect(ran).toEqual(["git push"]);
      expect(resumed.messages.at(-1)?.content).toBe("finished");
      expect(checks.count).toBe(1);
    });

    it("reject never runs the tool and the model reads the human's message", async () => {
      const { agent, config, ran, read } = await pausedAgent();
      await agent.invoke(new Command({ resume: { decisions: [{ type: "reject", message: "not on a Friday" }] } }), config);
      expect(ran).toEqual([]);
      expect(read()?.status).toBe("error");
      expect(read()?.content).toBe("not on a Friday");
    });
  });
});
