import { blockMessage, createHost, type Host, type HostOptions, type Plugin, type ToolResult } from "@toolgate/host";
import { afterEach, describe, expect, it } from "vitest";
import { recordEvents } from "../helpers/recorders.js";

// What the framework adapters rely on: an ask settled by the check, the block text, calls without an id,
// and post_tool_call for tools the caller runs itself.

const hosts: Host[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

const ran: string[] = [];
const tools = { terminal: { kind: "shell", execute: (args: Record<string, unknown>) => (ran.push(String(args.command)), "done") } };
const asker: Plugin = { name: "asker", hooks: { pre_tool_call: () => ({ action: "ask", message: "a human should look" }) } };
const rootGuard: Plugin = {
  name: "no-root-delete",
  hooks: {
    pre_tool_call: (call) => (/rm\s+-rf\s+\//.test(String(call.args.command)) ? { action: "block", message: "refusing destructive root delete" } : undefined),
  },
};

async function hostWith(plugins: Plugin[], options: HostOptions = {}): Promise<Host> {
  ran.length = 0;
  const host = await createHost({ pluginsDir: false, configFile: false, logger: false, tools, plugins, ...options });
  hosts.push(host);
  return host;
}

const call = { id: "c1", name: "terminal", args: { command: "ls" } };

describe("checkToolCall(call, { resolveAsk: true })", () => {
  it("settles an ask through onAsk: approved is allow, declined is block naming the plugin", async () => {
    const questions: string[] = [];
    const approving = await hostWith([asker], { onAsk: (_call, message) => (questions.push(message), true) });
    expect(await approving.checkToolCall(call, { resolveAsk: true })).toMatchObject({ action: "allow", plugin: "asker" });
    const declining = await hostWith([asker], { onAsk: () => false });
    expect(await declining.checkToolCall(call, { resolveAsk: true })).toMatchObject({
      action: "block",
      plugin: "asker",
      message: "a human should look (not approved)",
    });
    expect(questions).toEqual(["a human should look"]);
  });

  it("without the option an ask stays an ask, and onAsk is not asked", async () => {
    let asked = 0;
    const host = await hostWith([asker], { onAsk: () => (asked++, true) });
    expect(await host.checkToolCall(call)).toMatchObject({ action: "ask", message: "a human should look" });
    expect(asked).toBe(0);
  });

  it("a host with no onAsk returns the ask as is, for the caller's own approval flow", async () => {
    const host = await hostWith([asker]);
    expect(await host.checkToolCall(call, { resolveAsk: true })).toMatchObject({ action: "ask", plugin: "asker" });
  });

  it("the answer is remembered: callTool with skipPreToolCallHook runs on it without asking again", async () => {
    let asked = 0;
    const host = await hostWith([asker], { onAsk: () => (asked++, true) });
    await host.checkToolCall(call, { resolveAsk: true });
    expect(await host.callTool(call, { skipPreToolCallHook: true })).toMatchObject({ status: "ok", content: "done" });
    expect(asked).toBe(1);
    expect(ran).toEqual(["ls"]);
  });
});

describe("blockMessage(verdict)", () => {
  it("is the text of a blocked call's result: the plugin named, its message verbatim", async () => {
    const host = await hostWith([rootGuard]);
    const dangerous = { id: "c2", name: "terminal", args: { command: "rm -rf /" } };
    const verdict = await host.checkToolCall(dangerous);
    expect(blockMessage(verdict)).toBe('Tool call blocked by plugin "no-root-delete": refusing destructive root delete');
    expect((await host.callTool(dangerous)).content).toBe(blockMessage(verdict));
  });
});

describe("calls without an id", () => {
  it("get a generated toolgate_<uuid>, distinct per call, and run", async () => {
    const host = await hostWith([]);
    const [first, second] = await host.callTools([
      { name: "terminal", args: { command: "ls" } },
      { name: "terminal", args: { command: "pwd" } },
    ]);
    expect(first?.callId).toMatch(/^toolgate_[0-9a-f-]{36}$/);
    expect(second?.callId).toMatch(/^toolgate_[0-9a-f-]{36}$/);
    expect(first?.callId).not.toBe(second?.callId);
    expect(ran).toEqual(["ls", "pwd"]);
  });

  it("are gated like any other call", async () => {
    const host = await hostWith([rootGuard]);
    const result = await host.callTool({ name: "terminal", args: { command: "rm -rf /" } });
    expect(result).toMatchObject({ status: "blocked", blockedBy: "no-root-delete" });
    expect(ran).toEqual([]);
  });
});

describe("postToolCall(call, result)", () => {
  it("runs every plugin's post_tool_call for a tool the caller ran, and emits no tool events", async () => {
    const seen: string[] = [];
    const observer: Plugin = {
      name: "observer",
      hooks: { post_tool_call: (observed, result) => void seen.push(`${observed.id}:${observed.name}:${result.status}:${result.content}`) },
    };
    const host = await hostWith([observer]);
    const events = recordEvents(host.events);
    const result: ToolResult = { callId: "c1", name: "terminal", status: "ok", content: "listing" };
    await host.postToolCall(call, result);
    expect(seen).toEqual(["c1:terminal:ok:listing"]);
    expect(events.filter(({ type }) => type.startsWith("tool:"))).toEqual([]);
  });

  it("rejects after close", async () => {
    const host = await hostWith([]);
    await host.close();
    await expect(host.postToolCall(call, { callId: "c1", name: "terminal", status: "ok", content: "" })).rejects.toThrow(/closed/);
  });
});
